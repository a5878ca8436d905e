package io.flashsale.domain.reconciliation;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import static io.flashsale.domain.reconciliation.ReservationSettlement.CANCEL_OVERDUE;
import static io.flashsale.domain.reconciliation.ReservationSettlement.CANCEL_PENDING;
import static io.flashsale.domain.reconciliation.ReservationSettlement.FAILED_HELD;
import static io.flashsale.domain.reconciliation.ReservationSettlement.IN_FLIGHT;
import static io.flashsale.domain.reconciliation.ReservationSettlement.RESTORE_PENDING;
import static io.flashsale.domain.reconciliation.ReservationSettlement.SETTLED;
import static io.flashsale.domain.reconciliation.ReservationSettlement.SETTLED_OVERDUE;
import static io.flashsale.domain.reconciliation.ReservationSettlement.SETTLED_PENDING;
import static io.flashsale.domain.reconciliation.ReservationSettlement.UNKNOWN;

/**
 * The accounting equation: MySQL is the truth, and the hot store must show it, except for what is on its way.
 *
 * <pre>
 * expected total     = stock                                  (minus adjustments the hot store is about to apply)
 * expected sold      = units of holding orders (ORDERED, PAID) (minus orders the buyer cancelled a moment ago)
 * expected reserved  = units of RESERVED reservations the database has not settled (outbox, Kafka: in flight)
 * expected available = total - sold - reserved, never below 0
 * expected holdings  = each buyer's purchased units + their units in flight
 * </pre>
 *
 * The hot store's own figures are read as if the moves on their way had landed: a RESERVED reservation the database
 * already ordered counts once, as sold; one the database refused or closed counts as given back; an ORDERED one the
 * database closed counts as restored. A FAILED reservation counts for nothing on either side, so the units the hot
 * store still holds for it show as drift and a repair releases them.
 *
 * <p>The target a repair writes keeps every reservation that is still RESERVED or ORDERED in the hot store where the
 * hot store's own scripts will move it from, so that no unit is ever moved twice, and never makes available more
 * than {@code stock - sold - in flight}: it takes the database's stock and sold as they are, so a cancellation the
 * database has not recorded yet is withheld until the next reconciliation rather than given out early.
 */
public final class StockReconciliation {

    private StockReconciliation() {
    }

    /**
     * @param hot      the hot store's snapshot of the SKU, read first
     * @param recorded the database of record's figures, read after it, with the orders of the snapshot's reservations
     * @param grace    how long a move may be on its way before it counts as lost
     */
    public static SkuReckoning reckon(HotSkuSnapshot hot, RecordedSku recorded, Instant now, Duration grace) {
        return reckon(hot, recorded, now, grace, Set.of());
    }

    /**
     * @param landedAdjustments adjustments the caller knows will not reach the hot store by themselves (it refused
     *                          them): they count as the truth at once, however fresh
     */
    public static SkuReckoning reckon(HotSkuSnapshot hot, RecordedSku recorded, Instant now, Duration grace,
                                      Set<Long> landedAdjustments) {
        Instant overdueBefore = now.minus(grace);
        Books books = books(hot, recorded, overdueBefore);
        Map<ReservationId, ReservationSettlement> settlements = books.settlements();

        List<RecordedAdjustment> unapplied = recorded.adjustments().stream()
                .filter(adjustment -> !hot.appliedAdjustments().contains(adjustment.id())).toList();
        long adjustmentsOnTheirWay = unapplied.stream()
                .filter(adjustment -> !adjustment.createdAt().isBefore(overdueBefore))
                .filter(adjustment -> !landedAdjustments.contains(adjustment.id()))
                .mapToLong(RecordedAdjustment::delta).sum();

        long inFlight = books.units(books::inFlight);
        long cancelPending = books.units(CANCEL_PENDING) + books.units(CANCEL_OVERDUE);
        LedgerFigures expected = withAvailable(recorded.stock() - adjustmentsOnTheirWay, inFlight,
                recorded.sold() - cancelPending);
        LedgerFigures actual = books.asSettled(hot.figures());
        // Holdings left out of the look are compared by their sum, the store's own figure of it (ADR 43), against the
        // database's sum, so no buyer is read; a sum that disagrees sends the caller to read them. Read holdings are
        // compared buyer by buyer, and the figure with them.
        long heldSumDrift = hot.holdingsRead() ? 0
                : hot.heldUnits() - books.units(books::leavingHoldings) - books.expectedHeldUnits();
        long heldDrift = hot.holdingsRead() ? hot.heldUnits() - sum(hot.holdings()) : 0;
        List<HoldingMismatch> mismatches = hot.holdingsRead()
                ? mismatches(books.expectedHoldings(), books.settledHoldings(hot.holdings())) : List.of();

        // Every reservation the hot store still holds RESERVED or ORDERED stays where its own script moves it from.
        long targetReserved = inFlight + books.units(books::settledWhileReserved);
        long targetSold = recorded.sold() - books.units(books::settledAsHolding) + books.units(RESTORE_PENDING);
        long shortfall = Math.max(0, targetReserved + targetSold - recorded.stock());
        LedgerFigures target = shortfall > 0
                ? new LedgerFigures(targetReserved + targetSold, targetReserved, targetSold, 0)
                : new LedgerFigures(recorded.stock(), targetReserved, targetSold,
                recorded.stock() - targetReserved - targetSold);

        ReconciliationClassification classification = classify(actual.minus(expected), mismatches, settlements,
                heldSumDrift, heldDrift);
        // The target's total includes every adjustment the database applied, so all of them are marked applied: one
        // still on its way is then refused as already applied when it arrives, never applied twice.
        Set<Long> toMark = new TreeSet<>();
        unapplied.forEach(adjustment -> toMark.add(adjustment.id()));
        Map<BuyerId, Long> targetHoldings = hot.holdingsRead() ? books.targetHoldings() : Map.of();
        Map<BuyerId, Long> holdingChanges = hot.holdingsRead() ? changes(hot.holdings(), targetHoldings) : Map.of();
        return new SkuReckoning(hot.skuId(), hot.version(), expected, actual, mismatches, settlements,
                classification, target, books.asSettled(target), targetHoldings, holdingChanges, toMark, shortfall,
                heldSumDrift != 0, heldDrift, lowered(hot, holdingChanges, targetHoldings, heldDrift));
    }

    /**
     * The most units a repair takes off one buyer's stored holding, or off the stored sum of holdings when it writes
     * that sum (it does when the sum itself was wrong; otherwise the sum moves with the holdings written).
     */
    private static long lowered(HotSkuSnapshot hot, Map<BuyerId, Long> holdingChanges,
                                Map<BuyerId, Long> targetHoldings, long heldDrift) {
        long lowered = 0;
        for (Map.Entry<BuyerId, Long> change : holdingChanges.entrySet()) {
            lowered = Math.max(lowered, hot.holdings().getOrDefault(change.getKey(), 0L) - change.getValue());
        }
        if (heldDrift != 0) {
            lowered = Math.max(lowered, hot.heldUnits() - sum(targetHoldings));
        }
        return lowered;
    }

    /**
     * The buyers among {@code slice} (some of the hot store's holdings of the SKU, read after the look and under its
     * version) whose units differ from what the database says they hold, judged exactly as {@link #reckon} judges
     * every holding when it reads them all. How the rolling audit finds drift that keeps every sum (ADR 59): for the
     * sum to stay right while a holding is wrong, some buyer must hold more than expected, and so has a field the audit
     * reaches.
     */
    public static List<HoldingMismatch> auditSlice(HotSkuSnapshot hot, RecordedSku recorded, Instant now,
                                                   Duration grace, Map<BuyerId, Long> slice) {
        Books books = books(hot, recorded, now.minus(grace));
        Map<BuyerId, Long> moving = books.expectedMoves();
        Map<BuyerId, Long> settled = books.settledHoldings(slice);
        Map<BuyerId, Long> wanted = new HashMap<>();
        Map<BuyerId, Long> held = new HashMap<>();
        for (BuyerId buyer : slice.keySet()) {
            wanted.put(buyer, recorded.purchases().of(buyer) + moving.getOrDefault(buyer, 0L));
            held.put(buyer, settled.getOrDefault(buyer, 0L));
        }
        return mismatches(wanted, held);
    }

    /** How each of the look's reservations counts, given what the database settled for it. */
    private static Books books(HotSkuSnapshot hot, RecordedSku recorded, Instant overdueBefore) {
        if (!hot.skuId().equals(recorded.skuId())) {
            throw new IllegalArgumentException("snapshot of " + hot.skuId() + " against figures of " + recorded.skuId());
        }
        Map<ReservationId, ReservationSettlement> settlements = new LinkedHashMap<>();
        hot.reservations().forEach(held -> settlements.put(held.id(), settlementOf(held, recorded, overdueBefore)));
        return new Books(hot.reservations(), settlements, recorded);
    }

    private static long sum(Map<BuyerId, Long> units) {
        return units.values().stream().mapToLong(Long::longValue).sum();
    }

    /** How one reservation of the hot store counts, given what the database settled for it. */
    static ReservationSettlement settlementOf(HotReservation held, RecordedSku recorded, Instant overdueBefore) {
        RecordedOrder order = recorded.orders().get(held.id());
        return switch (held.status()) {
            case RESERVED -> {
                if (order == null) {
                    // By position, not by age: the caller marks what it found in the pipeline (ADR 29).
                    yield held.inPipeline() ? IN_FLIGHT : UNKNOWN;
                }
                yield order.settledAt().isBefore(overdueBefore) ? SETTLED_OVERDUE : SETTLED_PENDING;
            }
            case ORDERED -> recorded.restoresOwed().contains(held.id()) ? RESTORE_PENDING : SETTLED;
            case FAILED -> FAILED_HELD;
            case CANCELLED -> {
                // Only an ORDERED order can follow the buyer's cancel (ADR 32); one paid meanwhile, by an instance
                // whose breaker kept it from asking the hot store, stands: the hot store counts its units as sold.
                if (held.cancelledAt() == null || order == null || !order.canFollowACancel()) {
                    yield SETTLED;
                }
                yield held.cancelledAt().isBefore(overdueBefore) ? CANCEL_OVERDUE : CANCEL_PENDING;
            }
            case PAID, EXPIRED -> SETTLED;
        };
    }

    private static LedgerFigures withAvailable(long total, long reserved, long sold) {
        return new LedgerFigures(total, reserved, sold, Math.max(0, total - reserved - sold));
    }

    /** The most dangerous finding first: overselling, then lost events, then lost news, then anything else. */
    private static ReconciliationClassification classify(LedgerFigures drift, List<HoldingMismatch> mismatches,
                                                         Map<ReservationId, ReservationSettlement> settlements,
                                                         long heldSumDrift, long heldDrift) {
        if (drift.available() > 0 || mismatches.stream().anyMatch(HoldingMismatch::hotStoreCountsFewer)
                || heldSumDrift < 0) {
            return ReconciliationClassification.REDIS_AHEAD;
        }
        if (settlements.containsValue(UNKNOWN)) {
            return ReconciliationClassification.UNKNOWN_RESERVATION;
        }
        if (settlements.containsValue(SETTLED_OVERDUE) || settlements.containsValue(CANCEL_OVERDUE)
                || (drift.sold() < 0 && drift.available() == 0)) {
            return ReconciliationClassification.MISSING_RESERVATION;
        }
        if (!drift.isZero() || !mismatches.isEmpty() || heldSumDrift != 0 || heldDrift != 0) {
            return ReconciliationClassification.REDIS_BEHIND;
        }
        return ReconciliationClassification.NONE;
    }

    /** The buyers whose stored units differ from the target, with the target (0 when they should hold none). */
    private static Map<BuyerId, Long> changes(Map<BuyerId, Long> stored, Map<BuyerId, Long> target) {
        Map<BuyerId, Long> changes = new HashMap<>();
        target.forEach((buyer, units) -> {
            if (!units.equals(stored.get(buyer))) {
                changes.put(buyer, units);
            }
        });
        stored.keySet().stream().filter(buyer -> !target.containsKey(buyer)).forEach(buyer -> changes.put(buyer, 0L));
        return changes;
    }

    private static List<HoldingMismatch> mismatches(Map<BuyerId, Long> expected, Map<BuyerId, Long> actual) {
        Set<BuyerId> buyers = new TreeSet<>((a, b) -> a.value().compareTo(b.value()));
        buyers.addAll(expected.keySet());
        buyers.addAll(actual.keySet());
        List<HoldingMismatch> mismatches = new ArrayList<>();
        for (BuyerId buyer : buyers) {
            long wanted = expected.getOrDefault(buyer, 0L);
            long held = actual.getOrDefault(buyer, 0L);
            if (wanted != held) {
                mismatches.add(new HoldingMismatch(buyer, wanted, held));
            }
        }
        return mismatches;
    }

    /** Sums over the hot store's reservations by how they count. */
    private record Books(List<HotReservation> held, Map<ReservationId, ReservationSettlement> settlements,
                         RecordedSku recorded) {

        long units(ReservationSettlement settlement) {
            return units(reservation -> settlements.get(reservation.id()) == settlement);
        }

        long units(Predicate<HotReservation> which) {
            return held.stream().filter(which).mapToLong(HotReservation::units).sum();
        }

        boolean inFlight(HotReservation reservation) {
            ReservationSettlement settlement = settlements.get(reservation.id());
            return settlement == IN_FLIGHT || settlement == UNKNOWN;
        }

        /** Still RESERVED here although the database settled it: the hot store's script moves it later. */
        boolean settledWhileReserved(HotReservation reservation) {
            ReservationSettlement settlement = settlements.get(reservation.id());
            return settlement == SETTLED_PENDING || settlement == SETTLED_OVERDUE;
        }

        boolean settledAsHolding(HotReservation reservation) {
            return settledWhileReserved(reservation) && recorded.orders().get(reservation.id()).holdsStock();
        }

        /** Settled here as given back (refused, closed, or cancelled before it was ordered), still RESERVED there. */
        boolean settledAsFreed(HotReservation reservation) {
            return settledWhileReserved(reservation) && !settledAsHolding(reservation);
        }

        /**
         * Figures as if the hot store's moves on their way had landed: a settled RESERVED reservation leaves reserved
         * (for sold when the database holds its order, for available when it does not), a restore owed moves sold
         * back to available.
         */
        LedgerFigures asSettled(LedgerFigures figures) {
            long settledReserved = units(this::settledWhileReserved);
            long settledHolding = units(this::settledAsHolding);
            long restorePending = units(RESTORE_PENDING);
            return new LedgerFigures(figures.total(), figures.reserved() - settledReserved,
                    figures.sold() + settledHolding - restorePending,
                    figures.available() + settledReserved - settledHolding + restorePending);
        }

        boolean is(HotReservation reservation, ReservationSettlement settlement) {
            return settlements.get(reservation.id()) == settlement;
        }

        /** Purchases, plus units in flight, minus units the buyer cancelled a moment ago; every buyer read. */
        Map<BuyerId, Long> expectedHoldings() {
            Map<BuyerId, Long> holdings = new HashMap<>(recorded.purchases().all());
            expectedMoves().forEach((buyer, units) -> holdings.merge(buyer, units, Long::sum));
            return withoutZeros(holdings);
        }

        /** What the buyers' expected holdings differ from their purchases by: units in flight, less fresh cancels. */
        Map<BuyerId, Long> expectedMoves() {
            Map<BuyerId, Long> moves = new HashMap<>();
            for (HotReservation reservation : held) {
                if (inFlight(reservation)) {
                    moves.merge(reservation.buyerId(), reservation.units(), Long::sum);
                } else if (is(reservation, CANCEL_PENDING) || is(reservation, CANCEL_OVERDUE)) {
                    moves.merge(reservation.buyerId(), -reservation.units(), Long::sum);
                }
            }
            return moves;
        }

        /** The sum of {@link #expectedHoldings()}, from the database's sum of purchases: no buyer read. */
        long expectedHeldUnits() {
            return recorded.purchases().units() + units(this::inFlight) - units(CANCEL_PENDING)
                    - units(CANCEL_OVERDUE);
        }

        /** Units the hot store's holdings lose once the moves on their way land: given back, and restored. */
        boolean leavingHoldings(HotReservation reservation) {
            return settledAsFreed(reservation) || is(reservation, RESTORE_PENDING);
        }

        /** The hot store's holdings with the moves on their way applied: given back, and restored, units leave. */
        Map<BuyerId, Long> settledHoldings(Map<BuyerId, Long> stored) {
            Map<BuyerId, Long> holdings = new HashMap<>(stored);
            for (HotReservation reservation : held) {
                if (settledAsFreed(reservation) || is(reservation, RESTORE_PENDING)) {
                    holdings.merge(reservation.buyerId(), -reservation.units(), Long::sum);
                }
            }
            return withoutZeros(holdings);
        }

        /** Purchases and units in flight, plus units the hot store's scripts will still take away themselves. */
        Map<BuyerId, Long> targetHoldings() {
            Map<BuyerId, Long> holdings = new HashMap<>(recorded.purchases().all());
            for (HotReservation reservation : held) {
                if (inFlight(reservation) || settledAsFreed(reservation) || is(reservation, RESTORE_PENDING)) {
                    holdings.merge(reservation.buyerId(), reservation.units(), Long::sum);
                }
            }
            Map<BuyerId, Long> positive = new HashMap<>();
            holdings.forEach((buyer, units) -> {
                if (units > 0) {
                    positive.put(buyer, units);
                }
            });
            return positive;
        }

        private static Map<BuyerId, Long> withoutZeros(Map<BuyerId, Long> holdings) {
            holdings.values().removeIf(units -> units == 0);
            return holdings;
        }
    }
}
