package io.flashsale.domain.activity;

import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.Require;

/**
 * One SKU on sale.
 *
 * @param perUserLimit overrides the activity's limit for this SKU; null means "use the activity's"
 * @param segments     how many counters the stock is split into inside Redis (hot-key relief); sums are what count
 */
public record ActivityItem(SkuId skuId, long stock, Integer perUserLimit, int segments) {

    public static final long MAX_STOCK = 1_000_000_000L;
    public static final int MAX_SEGMENTS = 16;

    public ActivityItem {
        Require.present(skuId, "skuId");
        Require.inRange(stock, 0, MAX_STOCK, "stock");
        if (perUserLimit != null) {
            Require.inRange(perUserLimit, 1, PurchaseLimit.MAX, "perUserLimit");
        }
        Require.inRange(segments, 1, MAX_SEGMENTS, "segments");
    }

    public static ActivityItem of(String skuId, long stock) {
        return new ActivityItem(new SkuId(skuId), stock, null, 1);
    }
}
