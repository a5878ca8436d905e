package io.flashsale.domain.stock;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * The hot-path state of one warmed-up activity and the rules that move it: the executable
 * reference that the Redis Lua scripts mirror line by line, refereed by the stock contract test.
 * Not thread-safe: callers serialize access, as Redis does for the scripts.
 */
public final class ActivityLedger {

    /** Replaced, never mutated, when an operator pauses, resumes or moves the window ({@link #changeTerms}). */
    private Activity activity;
    private final Map<SkuId, StockLedger> ledgers = new LinkedHashMap<>();
    private final Map<BuyerId, Map<SkuId, Long>> holdings = new HashMap<>();
    /** The records: RESERVED ones, and those that never became an order (ADR 71: an ordered one leaves its record). */
    private final Map<ReservationId, Reservation> reservations = new HashMap<>();
    /** What is left of an order restored here: its final status alone, so a second restore finds it done. */
    private final Map<ReservationId, ReservationStatus> restored = new HashMap<>();
    private final Map<BuyerRequest, ReservationId> requests = new HashMap<>();
    private final Map<ReservationId, Instant> cancelledAt = new HashMap<>();
    private final Map<SkuId, Set<Long>> appliedAdjustments = new HashMap<>();
    /** Moves per SKU, as Redis counts them in {@code <sku>:version}: every change of stock, holdings or status. */
    private final Map<SkuId, Long> versions = new HashMap<>();
    /** Which load this is, as Redis's meta {@code loadId}: a version read before a reload never matches after it. */
    private final long load = LOADS.incrementAndGet();

    private static final AtomicLong LOADS = new AtomicLong();

    private record BuyerRequest(BuyerId buyerId, RequestId requestId) {
    }

    private ActivityLedger(Activity activity) {
        this.activity = activity;
        activity.items().forEach(item -> ledgers.put(item.skuId(), StockLedger.of(item.stock())));
    }

    public static ActivityLedger warmUp(Activity activity) {
        return new ActivityLedger(activity);
    }

    /**
     * The ledger of an activity the store lost, loaded from the database of record: each SKU's total and sold as given,
     * nothing reserved, the buyers' holdings as purchased, and the adjustments the totals include marked applied.
     */
    public static ActivityLedger rebuild(Activity activity, List<SkuRebuild> skus) {
        ActivityLedger ledger = new ActivityLedger(activity);
        for (SkuRebuild sku : skus) {
            if (!ledger.ledgers.containsKey(sku.skuId())) {
                throw new IllegalArgumentException("activity " + activity.id() + " has no SKU " + sku.skuId());
            }
            ledger.ledgers.put(sku.skuId(), sku.figures().toLedger());
            sku.holdings().forEach((buyer, units) -> ledger.holdingsOf(buyer).put(sku.skuId(), units));
            ledger.appliedAdjustments.put(sku.skuId(), new HashSet<>(sku.adjustmentsApplied()));
        }
        return ledger;
    }

    /**
     * The ledger of an activity the store lost, rebuilt from the database of record's orders (ADR 31): each order
     * becomes its request index entry (an ORDERED or PAID one's wins over another order of the same request) and what
     * the store keeps of a settled reservation (ADR 71): nothing for an ORDERED or PAID one, the final status for a
     * CANCELLED or EXPIRED one, the record for a FAILED one. The units of ORDERED and PAID ones are sold and held by
     * their buyers. Each SKU's total and applied adjustments come from {@code totals}
     * (their sold units and holdings are not used); nothing is reserved.
     *
     * @throws IllegalStockMoveException when the orders hold more units of a SKU than its total
     */
    public static ActivityLedger rebuild(Activity activity, List<SkuRebuild> totals, List<Order> orders) {
        ActivityLedger ledger = new ActivityLedger(activity);
        Map<SkuId, Long> sold = new HashMap<>();
        for (Order order : orders) {
            Reservation record = order.toReservation();
            BuyerRequest request = new BuyerRequest(record.buyerId(), record.requestId());
            switch (order.status()) {
                case FAILED -> ledger.reservations.put(record.id(), record);
                case CANCELLED, EXPIRED -> ledger.restored.put(record.id(), order.status());
                case RESERVED, ORDERED, PAID -> {
                }
            }
            if (order.status() == ReservationStatus.ORDERED || order.status() == ReservationStatus.PAID) {
                ledger.requests.put(request, record.id());
                for (ReservationLine line : order.lines()) {
                    sold.merge(line.skuId(), (long) line.quantity(), Long::sum);
                    ledger.holdingsOf(record.buyerId()).merge(line.skuId(), (long) line.quantity(), Long::sum);
                }
            } else {
                ledger.requests.putIfAbsent(request, record.id());
            }
        }
        for (SkuRebuild sku : totals) {
            if (!ledger.ledgers.containsKey(sku.skuId())) {
                throw new IllegalArgumentException("activity " + activity.id() + " has no SKU " + sku.skuId());
            }
            long units = sold.getOrDefault(sku.skuId(), 0L);
            if (units > sku.total()) {
                throw new IllegalStockMoveException(sku.skuId() + ": orders hold " + units + " units of a total of "
                        + sku.total());
            }
            ledger.ledgers.put(sku.skuId(), new LedgerFigures(sku.total(), 0, units, sku.total() - units).toLedger());
            ledger.appliedAdjustments.put(sku.skuId(), new HashSet<>(sku.adjustmentsApplied()));
        }
        return ledger;
    }

    /**
     * Replay, window, pause, unknown SKUs, then every line's limit and stock in line order; all lines are
     * deducted or none, and nothing changes on a refusal.
     */
    public ReservationOutcome reserve(ReservationRequest request) {
        Optional<ReservationOutcome> replay = replay(request.buyerId(), request.requestId());
        if (replay.isPresent()) {
            return replay.get();
        }
        switch (activity.phaseAt(request.at())) {
            case NOT_STARTED -> {
                return new ReservationOutcome.NotStarted(activity.startsAt());
            }
            case ENDED -> {
                return new ReservationOutcome.Ended(activity.endsAt());
            }
            case OPEN -> {
            }
        }
        if (activity.paused()) {
            return new ReservationOutcome.Paused();
        }
        for (ReservationLine line : request.lines()) {
            if (!ledgers.containsKey(line.skuId())) {
                return new ReservationOutcome.UnknownSku(line.skuId());
            }
        }
        for (ReservationLine line : request.lines()) {
            Optional<ReservationOutcome> refusal = refusal(request.buyerId(), line);
            if (refusal.isPresent()) {
                return refusal.get();
            }
        }
        Reservation reservation = request.toReservation();
        for (ReservationLine line : reservation.lines()) {
            ledgers.computeIfPresent(line.skuId(), (sku, ledger) -> ledger.reserve(line.quantity()));
            holdingsOf(reservation.buyerId()).merge(line.skuId(), (long) line.quantity(), Long::sum);
        }
        moved(reservation);
        reservations.put(reservation.id(), reservation);
        requests.put(new BuyerRequest(reservation.buyerId(), reservation.requestId()), reservation.id());
        return new ReservationOutcome.Reserved(reservation);
    }

    private Optional<ReservationOutcome> refusal(BuyerId buyer, ReservationLine line) {
        ActivityItem item = activity.item(line.skuId()).orElseThrow();
        PurchaseLimit limit = activity.limitFor(item);
        long held = held(buyer, line.skuId());
        if (!limit.allows(held, line.quantity())) {
            return Optional.of(new ReservationOutcome.LimitExceeded(line.skuId(), limit.max(), held));
        }
        long available = ledgers.get(line.skuId()).available();
        if (available == 0) {
            return Optional.of(new ReservationOutcome.SoldOut(line.skuId()));
        }
        if (available < line.quantity()) {
            return Optional.of(new ReservationOutcome.InsufficientStock(line.skuId(), available));
        }
        return Optional.empty();
    }

    /** RESERVED -> CANCELLED: the units go back to available and to the buyer's allowance. */
    public boolean release(ReservationId id) {
        return giveBackReserved(id, ReservationStatus.CANCELLED);
    }

    /**
     * RESERVED -> FAILED with the units back at once (available and the buyer's allowance): the batched order pipeline
     * stored the refusal in the database of record, which holds none of the units, so this is the one place they come
     * back. False, and nothing moves, for a reservation that is not RESERVED, so it happens once.
     */
    public boolean failReleasing(ReservationId id) {
        return giveBackReserved(id, ReservationStatus.FAILED);
    }

    private boolean giveBackReserved(ReservationId id, ReservationStatus to) {
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.RESERVED) {
            return false;
        }
        moveEveryLine(reservation.buyerId(), reservation.lines(), StockLedger::release, true);
        reservations.put(id, reservation.transitionTo(to));
        return true;
    }

    /** {@link #release(ReservationId)} by the buyer, remembering when: the order pipeline and the buyer's view ask. */
    public boolean release(ReservationId id, Instant at) {
        if (at == null) {
            throw new IllegalArgumentException("a cancellation needs its moment");
        }
        if (!release(id)) {
            return false;
        }
        cancelledAt.put(id, at);
        return true;
    }

    /** When the buyer cancelled the reservation while it was RESERVED; empty for any other reservation. */
    public Optional<Instant> cancelledAt(ReservationId id) {
        return Optional.ofNullable(cancelledAt.get(id));
    }

    /**
     * ORDERED -> CANCELLED or EXPIRED: the database of record closed the order and gave its units back there, so
     * here too sold units become available again and the buyer's allowance returns. An ordered reservation has no
     * record here (ADR 71), so the caller gives the order; its request entry naming it tells it from one this store
     * never held. Only the final status is kept, and nothing moves for a reservation that is not ORDERED: a second
     * restore can never give the units back twice.
     *
     * @param buyer     the order's buyer, as the database of record holds it
     * @param requestId the order's request
     * @param lines     the order's lines
     * @return the status the reservation had here before (ORDERED: restored now); empty when this store never held it
     * @throws IllegalArgumentException when {@code finalStatus} is not one that gives units back
     */
    public Optional<ReservationStatus> restore(ReservationId id, BuyerId buyer, RequestId requestId,
                                               List<ReservationLine> lines, ReservationStatus finalStatus) {
        requireRestoringStatus(finalStatus);
        Optional<ReservationStatus> before = restoreStatus(id, buyer, requestId);
        if (before.equals(Optional.of(ReservationStatus.ORDERED))) {
            moveEveryLine(buyer, lines, StockLedger::restore, true);
            restored.put(id, finalStatus);
        }
        return before;
    }

    /** What {@link #restore} would find of the order: the status before it, empty when never held here. */
    public Optional<ReservationStatus> restoreStatus(ReservationId id, BuyerId buyer, RequestId requestId) {
        if (reservations.containsKey(id)) {
            return Optional.of(reservations.get(id).status());
        }
        if (restored.containsKey(id)) {
            return Optional.of(restored.get(id));
        }
        return id.equals(requests.get(new BuyerRequest(buyer, requestId)))
                ? Optional.of(ReservationStatus.ORDERED) : Optional.empty();
    }

    /** @throws IllegalArgumentException unless {@code finalStatus} is one an order gives its units back in */
    public static void requireRestoringStatus(ReservationStatus finalStatus) {
        if (finalStatus == null || !finalStatus.restoresOrderedUnits()) {
            throw new IllegalArgumentException("an ordered reservation gives its units back only when CANCELLED or "
                    + "EXPIRED, not " + finalStatus);
        }
    }

    /**
     * ORDERED -> PAID, mirroring the database of record; nothing moves, the units stay sold and held. An ordered
     * reservation keeps no record here (ADR 71), so this finds nothing to mark; a record still ORDERED would leave, as
     * {@code mark_paid.lua} lets one of a sale loaded before leave.
     */
    public boolean markPaid(ReservationId id) {
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.ORDERED) {
            return false;
        }
        reservations.remove(id);
        return true;
    }

    /**
     * RESERVED -> ORDERED: MySQL has the order, so reserved units become sold, and the record leaves (ADR 71): the
     * database of record holds the order now. The request entry stays, so a keyed retry is answered
     * {@link ReservationOutcome.Settled}.
     */
    public boolean confirm(ReservationId id) {
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.RESERVED) {
            return false;
        }
        moveEveryLine(reservation.buyerId(), reservation.lines(), StockLedger::confirm, false);
        reservations.remove(id);
        return true;
    }

    /**
     * RESERVED -> FAILED: the database of record refused the order, so it disagrees with this store. Nothing
     * moves: the units stay reserved and the buyer keeps holding them until reconciliation decides, because
     * giving them back blindly could sell units the database no longer has.
     */
    public boolean fail(ReservationId id) {
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.RESERVED) {
            return false;
        }
        moved(reservation);
        reservations.put(id, reservation.transitionTo(ReservationStatus.FAILED));
        return true;
    }

    /**
     * Applies an audited change of a SKU's total once: total and available move by {@code delta}; refused, with nothing
     * moved, when fewer units are available than a reduction takes. A second application of the same adjustment id
     * moves nothing.
     */
    public LedgerAdjustment adjust(SkuId skuId, long delta, long adjustmentId) {
        StockLedger ledger = ledgers.get(skuId);
        if (ledger == null) {
            return new LedgerAdjustment.UnknownSku();
        }
        Set<Long> applied = appliedAdjustments.computeIfAbsent(skuId, sku -> new HashSet<>());
        if (applied.contains(adjustmentId)) {
            return new LedgerAdjustment.AlreadyApplied();
        }
        if (ledger.available() + delta < 0) {
            return new LedgerAdjustment.Refused(ledger.available());
        }
        StockLedger adjusted = ledger.adjust(delta);
        ledgers.put(skuId, adjusted);
        applied.add(adjustmentId);
        versions.merge(skuId, 1L, Long::sum);
        return new LedgerAdjustment.Applied(adjusted);
    }

    /**
     * One SKU as reconciliation reads it: the ledger, every buyer's holdings of it, and its reservations that are
     * RESERVED, FAILED, or CANCELLED by the buyer while RESERVED (an ORDERED one keeps no record: ADR 71). This store
     * keeps no outbox, so no reservation is reported waiting in one.
     */
    public HotSkuSnapshot snapshot(SkuId skuId) {
        StockLedger ledger = ledgers.get(skuId);
        LedgerFigures figures = ledger == null ? LedgerFigures.ZERO : LedgerFigures.of(ledger);
        Map<BuyerId, Long> held = new HashMap<>();
        holdings.forEach((buyer, units) -> {
            long unitsOfSku = units.getOrDefault(skuId, 0L);
            if (unitsOfSku != 0) {
                held.put(buyer, unitsOfSku);
            }
        });
        List<HotReservation> looked = new ArrayList<>();
        for (Reservation reservation : reservations.values()) {
            Optional<ReservationLine> line = reservation.lines().stream()
                    .filter(candidate -> candidate.skuId().equals(skuId)).findFirst();
            if (line.isPresent() && isReconciled(reservation)) {
                looked.add(new HotReservation(reservation.id(), reservation.buyerId(), reservation.status(),
                        line.get().quantity(), reservation.reservedAt(), cancelledAt.get(reservation.id()), false));
            }
        }
        return new HotSkuSnapshot(skuId, figures, held, looked,
                appliedAdjustments.getOrDefault(skuId, Set.of()), version(skuId));
    }

    private boolean isReconciled(Reservation reservation) {
        return switch (reservation.status()) {
            case RESERVED, ORDERED, FAILED -> true;
            case CANCELLED -> cancelledAt.containsKey(reservation.id());
            case PAID, EXPIRED -> false;
        };
    }

    /** Changes with every move of the SKU's stock, holdings or of a reservation's status, as Redis counts them. */
    public String version(SkuId skuId) {
        return "L" + load + "/" + versions.getOrDefault(skuId, 0L);
    }

    /**
     * Moves every line of the reservation, or none: every ledger move and every holding it gives back is checked before
     * anything is written, as the scripts do, so a refused move ({@link IllegalStockMoveException}) changes nothing.
     */
    private void moveEveryLine(BuyerId buyer, List<ReservationLine> lines,
                               BiFunction<StockLedger, Long, StockLedger> move, boolean givesHoldingsBack) {
        Map<SkuId, StockLedger> after = new HashMap<>();
        for (ReservationLine line : lines) {
            StockLedger ledger = ledgers.get(line.skuId());
            if (ledger != null) {
                after.put(line.skuId(), move.apply(ledger, (long) line.quantity()));
            }
            long held = held(buyer, line.skuId());
            if (givesHoldingsBack && held < line.quantity()) {
                throw new IllegalStockMoveException("cannot give back " + line.quantity() + " of " + line.skuId()
                        + ", " + buyer + " holds " + held);
            }
        }
        ledgers.putAll(after);
        if (givesHoldingsBack) {
            for (ReservationLine line : lines) {
                holdingsOf(buyer).merge(line.skuId(), (long) -line.quantity(), Long::sum);
            }
        }
        moved(lines);
    }

    private void moved(Reservation reservation) {
        moved(reservation.lines());
    }

    private void moved(List<ReservationLine> lines) {
        lines.forEach(line -> versions.merge(line.skuId(), 1L, Long::sum));
    }

    /**
     * Rewrites one SKU's ledger and every buyer's holdings of it, and marks the adjustments applied; false, with
     * nothing written, when the SKU moved since the snapshot the repair was computed from.
     */
    public boolean repair(LedgerRepair repair) {
        SkuId skuId = repair.skuId();
        if (!activity.item(skuId).isPresent() || !version(skuId).equals(repair.version())) {
            return false;
        }
        ledgers.put(skuId, repair.figures().toLedger());
        repair.holdings().forEach((buyer, units) -> {
            if (units == 0) {
                holdingsOf(buyer).remove(skuId);
            } else {
                holdingsOf(buyer).put(skuId, units);
            }
        });
        versions.merge(skuId, 1L, Long::sum);
        appliedAdjustments.computeIfAbsent(skuId, sku -> new HashSet<>()).addAll(repair.adjustmentsApplied());
        return true;
    }

    public List<SkuStock> stock() {
        return ledgers.entrySet().stream().map(entry -> new SkuStock(entry.getKey(), entry.getValue())).toList();
    }

    public long held(BuyerId buyer, SkuId skuId) {
        return holdings.getOrDefault(buyer, Map.of()).getOrDefault(skuId, 0L);
    }

    /** SKU -> units held, without zero entries. */
    public Map<SkuId, Long> holdings(BuyerId buyer) {
        var held = new LinkedHashMap<SkuId, Long>();
        holdings.getOrDefault(buyer, Map.of()).forEach((sku, units) -> {
            if (units != 0) {
                held.put(sku, units);
            }
        });
        return held;
    }

    public Optional<Reservation> reservation(ReservationId id) {
        return Optional.ofNullable(reservations.get(id));
    }

    /**
     * The answer to an attempt of this buyer with a request id an earlier attempt used: its reservation as recorded
     * here, or {@link ReservationOutcome.Settled} when it left its record (ADR 71); empty for a new request.
     */
    public Optional<ReservationOutcome> replay(BuyerId buyer, RequestId requestId) {
        ReservationId earlier = requests.get(new BuyerRequest(buyer, requestId));
        if (earlier == null) {
            return Optional.empty();
        }
        Reservation held = reservations.get(earlier);
        return Optional.of(held != null ? new ReservationOutcome.Replayed(held)
                : new ReservationOutcome.Settled(earlier));
    }

    public Activity activity() {
        return activity;
    }

    /**
     * The sale's terms changed in the database of record (paused, resumed, its window moved: ADR 79); its SKUs and
     * stock do not change this way.
     */
    public void changeTerms(Activity changed) {
        if (!changed.id().equals(activity.id()) || !changed.items().equals(activity.items())) {
            throw new IllegalArgumentException("only the window and the pause of " + activity.id() + " change here");
        }
        activity = changed;
    }

    private Map<SkuId, Long> holdingsOf(BuyerId buyer) {
        return holdings.computeIfAbsent(buyer, b -> new HashMap<>());
    }
}
