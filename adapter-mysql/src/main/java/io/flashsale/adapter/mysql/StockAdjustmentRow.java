package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code stock_adjustment}; {@code id} is 0 until inserted. */
record StockAdjustmentRow(long id, String activityId, String skuId, long delta, long stockBefore, long stockAfter,
                          long soldAtTheTime, String operator, String reason, Instant createdAt) {
}
