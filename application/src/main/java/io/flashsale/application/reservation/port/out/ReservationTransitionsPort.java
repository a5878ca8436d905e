package io.flashsale.application.reservation.port.out;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.Optional;

/**
 * A reservation's moves in the hot store after the hot path decided it: the order pipeline's confirm and fail, the
 * buyer's cancellation, a payment's mark, and the restore of a closed order's units. Each move is one atomic step that
 * happens only from the status it names, so a repeated call moves nothing twice. The contract suite holds every
 * implementation to {@link io.flashsale.domain.stock.ActivityLedger}'s rules.
 */
public interface ReservationTransitionsPort {

    /** RESERVED -> CANCELLED, giving the units back; false when the reservation is not RESERVED. */
    boolean release(ReservationId reservationId);

    /**
     * The buyer's cancellation: {@link #release(ReservationId)}, and the store keeps when it happened
     * ({@link HeldReservationsPort#cancelledAt}).
     */
    boolean release(ReservationId reservationId, Instant cancelledAt);

    /**
     * RESERVED -> ORDERED, reserved units become sold and the record leaves (ADR 71): the database of record holds the
     * order. The request's entry stays, so a keyed retry is answered
     * {@link io.flashsale.domain.reservation.ReservationOutcome.Settled}. False when the reservation is not RESERVED.
     */
    boolean confirm(ReservationId reservationId);

    /**
     * RESERVED -> FAILED: the database of record refused the order. Nothing is given back: reserved units and
     * the buyer's holdings stay as they are until reconciliation decides. False when the reservation is not RESERVED.
     */
    boolean fail(ReservationId reservationId);

    /**
     * ORDERED -> PAID, mirroring the database of record; nothing moves. An ordered reservation keeps no record
     * (ADR 71), so there is nothing to mark: false, except for a record a store kept from before.
     */
    boolean markPaid(ReservationId reservationId);

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
}
