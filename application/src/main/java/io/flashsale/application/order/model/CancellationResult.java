package io.flashsale.application.order.model;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationStatus;

/** What a buyer's cancellation came to. */
public sealed interface CancellationResult {

    /** This call cancelled it; its units went back. */
    record Cancelled(Reservation reservation) implements CancellationResult {
    }

    /** It was cancelled before; nothing changed. */
    record AlreadyCancelled(Reservation reservation) implements CancellationResult {
    }

    /** Its status does not allow a cancellation: PAID, EXPIRED or FAILED. */
    record NotCancellable(ReservationStatus status) implements CancellationResult {
    }

    /** No such reservation, or another buyer's: the two look the same. */
    record NotFound() implements CancellationResult {
    }
}
