package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code stock_adjustment_proposal}; {@code id} is 0 until inserted. */
record AdjustmentProposalRow(long id, String activityId, String skuId, long delta, String reason, String proposedBy,
                             Instant proposedAt, Instant expiresAt, String status, String decidedBy, Instant decidedAt,
                             Long adjustmentId) {
}
