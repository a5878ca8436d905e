package io.flashsale.application.order.port.out;

import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Optional;

/** The provider's payments in the database of record: the reference on the order it paid, and those it could not. */
public interface ProviderPaymentsPort {

    /**
     * ORDERED -> PAID at {@code at} under {@code reference}, only before the order's payment deadline, in one
     * conditional move; a reference pays at most one order.
     */
    PaymentMark markPaid(ReservationId reservationId, PaymentReference reference, Instant providerPaidAt, Instant at);

    /** The reference the order was paid under; empty when it is not paid, or was paid without one. */
    Optional<PaymentReference> referenceOf(ReservationId reservationId);

    /** Keeps a payment that paid nothing, once per reference (a repeated delivery is counted), for the refund. */
    void recordRefused(RefusedPayment refused);

    /** What {@link #markPaid} did. */
    enum PaymentMark {
        /** This call made the move. */
        PAID,
        /** The order was not ORDERED, or its deadline had passed. */
        NOT_CHANGED,
        /** The reference already pays another order. */
        REFERENCE_TAKEN
    }
}
