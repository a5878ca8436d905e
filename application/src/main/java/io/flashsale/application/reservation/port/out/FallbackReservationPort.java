package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

import java.util.Optional;

/**
 * The database of record deciding a reservation while the hot store cannot (Redis down): ONE transaction with the
 * buyer-limit guard, the conditional stock update ({@code sold + q <= stock}) and the order itself, ORDERED at once,
 * so that nothing has to travel through the outbox and the broker. A refused attempt leaves nothing behind (no FAILED
 * order: the buyer was told no, nothing was accepted).
 * <p>
 * The caller has checked the sale's window and its SKUs; this port answers {@code Reserved}, {@code Replayed} (the
 * buyer's idempotency key was taken before on this path), {@code SoldOut}, {@code InsufficientStock} or
 * {@code LimitExceeded}.
 */
public interface FallbackReservationPort {

    ReservationOutcome reserve(ReservationRequest request);

    /**
     * The reservation the buyer's key was accepted with before, if the database of record holds it as an order: a
     * plain read, asked before the buyer's bucket so that a retry is replayed without taking a token (as the reserve
     * script does). {@link #reserve} looks again under its lock.
     */
    Optional<Reservation> acceptedBefore(ReservationRequest request);
}
