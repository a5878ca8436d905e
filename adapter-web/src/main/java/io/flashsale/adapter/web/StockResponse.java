package io.flashsale.adapter.web;

import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;

/**
 * The ledgers as the hot store holds them, and where the sale's slices sit in it (ADR 109): slices sharing a master
 * while another is free ({@code spread} false) carry no more than fewer slices would.
 */
public record StockResponse(String activityId, List<SkuStockResponse> items, PlacementResponse placement) {

    public record SkuStockResponse(String skuId, long total, long available, long reserved, long sold) {
    }

    /** The sale's slice count, the distinct masters holding them, the masters the hot store has. */
    public record PlacementResponse(int slices, int masters, int of, boolean spread) {
    }

    static StockResponse of(ActivityId activityId, List<SkuStock> stock, SlicePlacement placement) {
        return new StockResponse(activityId.value(), stock.stream()
                .map(sku -> new SkuStockResponse(sku.skuId().value(), sku.ledger().total(), sku.ledger().available(),
                        sku.ledger().reserved(), sku.ledger().sold()))
                .toList(), new PlacementResponse(placement.slices(), placement.masters(), placement.of(),
                placement.spread()));
    }
}
