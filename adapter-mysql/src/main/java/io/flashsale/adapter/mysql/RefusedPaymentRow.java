package io.flashsale.adapter.mysql;

import java.time.Instant;

/** A {@code payment_conflicts} row. */
record RefusedPaymentRow(String paymentReference, String reservationId, String reason, String orderStatus,
                                Instant providerPaidAt, Instant firstReceivedAt, Instant lastReceivedAt,
                                int deliveries) {
}
