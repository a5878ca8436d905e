package io.flashsale.domain.stock;

import io.flashsale.domain.activity.SkuId;

import java.util.Objects;

/** The ledger of one SKU as a store holds it right now. */
public record SkuStock(SkuId skuId, StockLedger ledger) {

    public SkuStock {
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(ledger, "ledger");
    }
}
