package io.flashsale.application.reservation.port.out;

import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Optional;

/**
 * The reservations the hot store holds, read: what the buyer's reads, payments, cancellations and the order pipeline
 * ask before they decide. An implementation that cannot reach its store answers "the store holds nothing": the
 * database of record knows every order. It cannot know a reservation the store accepted and the database has not
 * placed yet, so whoever would answer "not found" asks {@link #requireReadable()} first.
 */
public interface HeldReservationsPort {

    /** The reservation's record: empty once it was ordered (ADR 71), and for one the store never held. */
    Optional<Reservation> findReservation(ReservationId reservationId);

    /** When the buyer cancelled the reservation while it was RESERVED; empty for every other reservation. */
    Optional<Instant> cancelledAt(ReservationId reservationId);

    /**
     * Returns when an empty {@link #findReservation} means the store holds no such reservation; throws
     * {@link DegradedException} while the store cannot be read, when a reservation it accepted may exist that the
     * database of record does not know yet: "try again", not "not found". A store always read returns.
     */
    default void requireReadable() {
    }
}
