package io.flashsale.application.order.model;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationStatus;

/** What a buyer's payment came to. */
public sealed interface PaymentResult {

    /** This call moved the order from ORDERED to PAID. */
    record Paid(Reservation reservation) implements PaymentResult {
    }

    /** It was paid before; nothing changed. */
    record AlreadyPaid(Reservation reservation) implements PaymentResult {
    }

    /**
     * The reservation cannot be paid in its current status: CANCELLED, EXPIRED or FAILED for good, or RESERVED when
     * it is not an order yet (the buyer tries again shortly).
     */
    record NotPayable(ReservationStatus status) implements PaymentResult {
    }

    /** No such reservation, or another buyer's: the two look the same. */
    record NotFound() implements PaymentResult {
    }
}
