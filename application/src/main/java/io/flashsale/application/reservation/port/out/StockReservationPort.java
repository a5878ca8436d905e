package io.flashsale.application.reservation.port.out;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hot store that decides reservations atomically. Its rules are those of
 * {@link io.flashsale.domain.stock.ActivityLedger}; the contract suite holds every implementation to them.
 */
public interface StockReservationPort {

    /** Loads the activity's stock. Idempotent: a ledger that is already there is left as it is. */
    List<SkuStock> warmUp(Activity activity);

    /** Decides one attempt atomically: all lines deducted or none. {@code NotReady} before warm-up. */
    ReservationOutcome reserve(ReservationRequest request);

    /** RESERVED -> CANCELLED, giving the units back; false when the reservation is not RESERVED. */
    boolean release(ReservationId reservationId);

    /** The buyer's cancellation: {@link #release(ReservationId)}, and the store keeps when it happened. */
    boolean release(ReservationId reservationId, Instant cancelledAt);

    /** When the buyer cancelled the reservation while it was RESERVED; empty for every other reservation. */
    Optional<Instant> cancelledAt(ReservationId reservationId);

    /**
     * ORDERED -> CANCELLED | EXPIRED after the database of record closed the order and gave its units back there:
     * the order's sold units become available again (in any segment) and the buyer's allowance returns. The store
     * keeps no record of an ordered reservation (ADR 71), so the restore brings the order's buyer, request and lines;
     * only its final status stays, and nothing moves when the reservation is not ORDERED there, so the units can never
     * come back twice.
     *
     * @return the status the store held the reservation in before the call (ORDERED: restored now; RESERVED: the store
     * has not been told of the order yet); empty when the store never held it
     */
    Optional<ReservationStatus> restore(PendingRestore restore);

    /**
     * ORDERED -> PAID, mirroring the database of record; nothing moves. An ordered reservation keeps no record
     * (ADR 71), so there is nothing to mark: false, except for a record a store kept from before.
     */
    boolean markPaid(ReservationId reservationId);

    /**
     * RESERVED -> ORDERED, reserved units become sold and the record leaves (ADR 71): the database of record holds the
     * order. The request's entry stays, so a keyed retry is answered {@link ReservationOutcome.Settled}. False when the
     * reservation is not RESERVED.
     */
    boolean confirm(ReservationId reservationId);

    /**
     * RESERVED -> FAILED: the database of record refused the order. Nothing is given back: reserved units and
     * the buyer's holdings stay as they are until reconciliation decides. False when the reservation is not RESERVED.
     */
    boolean fail(ReservationId reservationId);

    /** The reservation's record: empty once it was ordered (ADR 71), and for one the store never held. */
    Optional<Reservation> findReservation(ReservationId reservationId);

    /** The ledgers in item order; empty when the activity is not warmed up. */
    Optional<List<SkuStock>> stock(ActivityId activityId);

    /** SKU -> units the buyer holds in the activity, without zero entries. */
    Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId);
}
