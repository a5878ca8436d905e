package io.flashsale.application.order.model;

import io.flashsale.domain.order.PaymentReference;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.shared.Require;

import java.time.Instant;

/**
 * A payment the provider took for a reservation, as its notification says (already authenticated).
 *
 * @param paidAt when the provider took the payment, by its clock; kept for the record, the deadline is judged by
 *               the time the notification arrives
 */
public record PaymentNotification(ReservationId reservationId, PaymentReference reference, Instant paidAt) {

    public PaymentNotification {
        Require.present(reservationId, "reservationId");
        Require.present(reference, "paymentReference");
        Require.present(paidAt, "paidAt");
    }
}
