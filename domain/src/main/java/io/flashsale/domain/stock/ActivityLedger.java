package io.flashsale.domain.stock;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hot-path state of one warmed-up activity and the rules that move it: the executable
 * reference that the Redis Lua scripts mirror line by line, refereed by the stock contract test.
 * Not thread-safe: callers serialize access, as Redis does for the scripts.
 */
public final class ActivityLedger {

    private final Activity activity;
    private final Map<SkuId, StockLedger> ledgers = new LinkedHashMap<>();
    private final Map<BuyerId, Map<SkuId, Long>> holdings = new HashMap<>();
    private final Map<ReservationId, Reservation> reservations = new HashMap<>();
    private final Map<BuyerRequest, ReservationId> requests = new HashMap<>();
    private final Map<ReservationId, Instant> cancelledAt = new HashMap<>();

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
     * Replay, window, unknown SKUs, then every line's limit and stock in line order; all lines are
     * deducted or none, and nothing changes on a refusal.
     */
    public ReservationOutcome reserve(ReservationRequest request) {
        ReservationId earlier = requests.get(new BuyerRequest(request.buyerId(), request.requestId()));
        if (earlier != null) {
            return new ReservationOutcome.Replayed(reservations.get(earlier));
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
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.RESERVED) {
            return false;
        }
        for (ReservationLine line : reservation.lines()) {
            ledgers.computeIfPresent(line.skuId(), (sku, ledger) -> ledger.release(line.quantity()));
            holdingsOf(reservation.buyerId()).merge(line.skuId(), (long) -line.quantity(), Long::sum);
        }
        reservations.put(id, reservation.transitionTo(ReservationStatus.CANCELLED));
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
     * here too sold units become available again and the buyer's allowance returns. False, and nothing moves, for
     * a reservation that is not ORDERED: a second restore can never give the units back twice.
     *
     * @throws IllegalArgumentException when {@code finalStatus} is not one that gives units back
     */
    public boolean restore(ReservationId id, ReservationStatus finalStatus) {
        requireRestoringStatus(finalStatus);
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.ORDERED) {
            return false;
        }
        for (ReservationLine line : reservation.lines()) {
            ledgers.computeIfPresent(line.skuId(), (sku, ledger) -> ledger.restore(line.quantity()));
            holdingsOf(reservation.buyerId()).merge(line.skuId(), (long) -line.quantity(), Long::sum);
        }
        reservations.put(id, reservation.transitionTo(finalStatus));
        return true;
    }

    /** @throws IllegalArgumentException unless {@code finalStatus} is one an order gives its units back in */
    public static void requireRestoringStatus(ReservationStatus finalStatus) {
        if (finalStatus == null || !finalStatus.restoresOrderedUnits()) {
            throw new IllegalArgumentException("an ordered reservation gives its units back only when CANCELLED or "
                    + "EXPIRED, not " + finalStatus);
        }
    }

    /** ORDERED -> PAID, mirroring the database of record; nothing moves, the units stay sold and held. */
    public boolean markPaid(ReservationId id) {
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.ORDERED) {
            return false;
        }
        reservations.put(id, reservation.transitionTo(ReservationStatus.PAID));
        return true;
    }

    /** RESERVED -> ORDERED: MySQL has the order, so reserved units become sold. */
    public boolean confirm(ReservationId id) {
        Reservation reservation = reservations.get(id);
        if (reservation == null || reservation.status() != ReservationStatus.RESERVED) {
            return false;
        }
        for (ReservationLine line : reservation.lines()) {
            ledgers.computeIfPresent(line.skuId(), (sku, ledger) -> ledger.confirm(line.quantity()));
        }
        reservations.put(id, reservation.transitionTo(ReservationStatus.ORDERED));
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
        reservations.put(id, reservation.transitionTo(ReservationStatus.FAILED));
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

    public Activity activity() {
        return activity;
    }

    private Map<SkuId, Long> holdingsOf(BuyerId buyer) {
        return holdings.computeIfAbsent(buyer, b -> new HashMap<>());
    }
}
