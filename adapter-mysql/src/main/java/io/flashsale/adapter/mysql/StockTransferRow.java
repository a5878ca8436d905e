package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code stock_transfer}; {@code id} is 0 until inserted, {@code state} the transfer state's name. */
record StockTransferRow(long id, String activityId, String skuId, int fromSlice, int toSlice, long units, String state,
                        long moved, Instant requestedAt) {
}
