package io.flashsale.adapter.web;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;

/** The ledgers as the hot store holds them. */
public record StockResponse(String activityId, List<SkuStockResponse> items) {

    public record SkuStockResponse(String skuId, long total, long available, long reserved, long sold) {
    }

    static StockResponse of(ActivityId activityId, List<SkuStock> stock) {
        return new StockResponse(activityId.value(), stock.stream()
                .map(sku -> new SkuStockResponse(sku.skuId().value(), sku.ledger().total(), sku.ledger().available(),
                        sku.ledger().reserved(), sku.ledger().sold()))
                .toList());
    }
}
