package io.flashsale.domain.activity;

import io.flashsale.domain.shared.Identifier;

public record SkuId(String value) {

    public SkuId {
        Identifier.require(value, "skuId");
    }

    @Override
    public String toString() {
        return value;
    }
}
