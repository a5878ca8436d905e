package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code stock_flow}: units of one SKU moved by one reservation. */
record StockFlowRow(String activityId, String skuId, String reservationId, String kind, long quantity,
                    Instant createdAt) {

    static final String SALE = "SALE";
    static final String RESTORE = "RESTORE";
}
