package io.flashsale.adapter.web;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.PaymentReference;

import java.time.Instant;

/**
 * The answer to a notification that paid the order, or was the one that paid it: the same for every delivery.
 *
 * @param status PAID
 * @param paidAt when the order became PAID here
 */
public record PaymentNotificationResponse(String reservationId, String paymentReference, String status,
                                          Instant paidAt) {

    static PaymentNotificationResponse of(String reservationId, PaymentReference reference, Order paid) {
        return new PaymentNotificationResponse(reservationId, reference.value(), paid.status().name(), paid.closedAt());
    }
}
