package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** Every SKU of one activity as the hot store held it at one instant, read in one atomic step. */
public record HotStoreSnapshot(ActivityId activityId, Map<SkuId, HotSkuSnapshot> skus) {

    public HotStoreSnapshot {
        Objects.requireNonNull(activityId, "activityId");
        skus = Map.copyOf(skus);
    }

    /** The SKU's part; a SKU the hot store has no ledger for reads as an empty ledger with no reservations. */
    public Optional<HotSkuSnapshot> sku(SkuId skuId) {
        return Optional.ofNullable(skus.get(skuId));
    }
}
