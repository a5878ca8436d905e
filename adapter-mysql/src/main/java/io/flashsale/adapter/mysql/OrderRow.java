package io.flashsale.adapter.mysql;

import java.time.Instant;

/**
 * One row of {@code purchase_order}; times hold at most millisecond precision, as DATETIME(3) keeps them.
 * {@code updated_at} is written as {@code placedAt} when the row is made and is not read back.
 */
record OrderRow(String reservationId, String activityId, String buyerId, String requestId, String status,
                String failureReason, Instant reservedAt, Instant placedAt) {
}
