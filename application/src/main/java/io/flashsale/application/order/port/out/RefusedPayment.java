package io.flashsale.application.order.port.out;

import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.shared.Require;

import java.time.Instant;

/**
 * A provider's payment that paid nothing and is owed back.
 *
 * @param orderStatus the reservation's status when the notification arrived (EXPIRED also for a passed deadline)
 */
public record RefusedPayment(ReservationId reservationId, PaymentReference reference, Reason reason,
                             ReservationStatus orderStatus, Instant providerPaidAt, Instant receivedAt) {

    public RefusedPayment {
        Require.present(reservationId, "reservationId");
        Require.present(reference, "reference");
        Require.present(reason, "reason");
        Require.present(orderStatus, "orderStatus");
        Require.present(providerPaidAt, "providerPaidAt");
        Require.present(receivedAt, "receivedAt");
    }

    public enum Reason {
        /** The order was paid under another reference, or the reference paid another order. */
        CONFLICT,
        /** The order could no longer be paid: expired, past its deadline, cancelled or failed. */
        NOT_PAYABLE
    }
}
