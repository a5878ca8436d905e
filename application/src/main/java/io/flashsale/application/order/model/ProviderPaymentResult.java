package io.flashsale.application.order.model;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationStatus;

/** What a provider's payment notification came to. */
public sealed interface ProviderPaymentResult {

    /** This notification moved the order from ORDERED to PAID under its reference. */
    record Paid(Order order) implements ProviderPaymentResult {
    }

    /** The order was paid before under the same reference: the same notification again, nothing changed. */
    record AlreadyPaid(Order order) implements ProviderPaymentResult {
    }

    /**
     * A second payment: the order is paid under another reference, or the reference already paid another order.
     * Recorded; nothing changed.
     */
    record Conflict(Order order) implements ProviderPaymentResult {
    }

    /**
     * The order cannot be paid any more ({@code status}: EXPIRED, also when its deadline passed before the notification
     * arrived; CANCELLED; FAILED). Recorded; nothing changed.
     */
    record Refused(ReservationStatus status) implements ProviderPaymentResult {
    }

    /** The reservation is not an order yet and becomes one within moments: the provider tries again shortly. */
    record NotYetOrdered() implements ProviderPaymentResult {
    }

    /** No such reservation. */
    record NotFound() implements ProviderPaymentResult {
    }
}
