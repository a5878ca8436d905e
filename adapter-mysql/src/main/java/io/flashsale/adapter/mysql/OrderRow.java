package io.flashsale.adapter.mysql;

import java.time.Instant;

/**
 * One row of {@code purchase_order}; times hold at most millisecond precision, as DATETIME(3) keeps them.
 * {@code updated_at} is written as {@code placedAt} when the row is made and is not read back; neither is
 * {@code hot_store_restore_due_at}, which only the restore sweep reads.
 *
 * @param paymentDueAt when an ORDERED order expires: set when it is placed, reservedAt plus the activity's payment
 *                     timeout (ADR 0082)
 */
record OrderRow(String reservationId, String activityId, String buyerId, String requestId, String status,
                String failureReason, Instant reservedAt, Instant placedAt, Instant orderedAt, Instant paidAt,
                Instant cancelledAt, Instant expiredAt, Instant paymentDueAt) {

    OrderRow withPaymentDueAt(Instant dueAt) {
        return new OrderRow(reservationId, activityId, buyerId, requestId, status, failureReason, reservedAt,
                placedAt, orderedAt, paidAt, cancelledAt, expiredAt, dueAt);
    }
}
