package io.flashsale.chaos.schedule;

import java.util.List;

/**
 * The sale a schedule sells: a few SKUs with small stock (so sell-outs and limits are reached), one limit each.
 *
 * @param paymentTimeoutSeconds short in some schedules, so that unpaid orders expire and give units back during the run
 * @param slices                the sale's slices (ADR 109); on a Redis Cluster each slice sits on its own master
 */
public record SaleShape(int perUserLimit, int paymentTimeoutSeconds, List<Sku> skus, int slices) {

    public SaleShape {
        skus = List.copyOf(skus);
        if (slices < 1) {
            throw new IllegalArgumentException("a sale has at least one slice, not " + slices);
        }
    }

    public SaleShape(int perUserLimit, int paymentTimeoutSeconds, List<Sku> skus) {
        this(perUserLimit, paymentTimeoutSeconds, skus, 1);
    }

    public SaleShape inSlices(int count) {
        return new SaleShape(perUserLimit, paymentTimeoutSeconds, skus, count);
    }

    /** @param ownLimit 0 when the sale's limit applies */
    public record Sku(String id, long stock, int segments, int ownLimit) {

        public int limit(int saleLimit) {
            return ownLimit > 0 ? ownLimit : saleLimit;
        }
    }

    public Sku sku(String id) {
        return skus.stream().filter(sku -> sku.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no SKU " + id));
    }
}
