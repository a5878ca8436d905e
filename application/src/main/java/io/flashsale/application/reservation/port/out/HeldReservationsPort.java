package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Optional;

/**
 * The reservations the hot store holds, read: what the buyer's reads, payments, cancellations and the order pipeline
 * ask before they decide. An implementation that cannot reach its store answers "the store holds nothing": the
 * database of record knows every order.
 */
public interface HeldReservationsPort {

    /** The reservation's record: empty once it was ordered (ADR 71), and for one the store never held. */
    Optional<Reservation> findReservation(ReservationId reservationId);

    /** When the buyer cancelled the reservation while it was RESERVED; empty for every other reservation. */
    Optional<Instant> cancelledAt(ReservationId reservationId);
}
