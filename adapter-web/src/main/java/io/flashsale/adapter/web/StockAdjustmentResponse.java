package io.flashsale.adapter.web;

import io.flashsale.domain.stock.StockAdjustment;

import java.time.Instant;

/** One audited stock adjustment as the database of record applied it. */
public record StockAdjustmentResponse(long id, String skuId, long delta, long stockBefore, long stockAfter,
                                      String operator, String reason, Instant createdAt) {

    static StockAdjustmentResponse of(StockAdjustment adjustment) {
        return new StockAdjustmentResponse(adjustment.id(), adjustment.skuId().value(), adjustment.delta(),
                adjustment.stockBefore(), adjustment.stockAfter(), adjustment.operator(), adjustment.reason(),
                adjustment.createdAt());
    }
}
