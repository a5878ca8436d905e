package io.flashsale.adapter.redis.internal;

import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;

import java.util.ArrayList;
import java.util.List;

/** A sale's stock over its slices (ADR 109): each SKU's figures summed over every slice, in slice 0's item order. */
public final class StockOverSlices {

    private StockOverSlices() {
    }

    /**
     * @param slices every slice's ledgers, slice 0 first
     * @throws HotStoreFiguresDisagreeException when the slices do not hold the same SKUs in the same order: each was
     *                                          loaded from the one sale
     */
    public static List<SkuStock> summed(List<List<SkuStock>> slices) {
        List<SkuStock> first = slices.getFirst();
        List<SkuStock> summed = new ArrayList<>(first.size());
        for (int i = 0; i < first.size(); i++) {
            SkuId sku = first.get(i).skuId();
            long total = 0;
            long reserved = 0;
            long sold = 0;
            for (int k = 0; k < slices.size(); k++) {
                List<SkuStock> slice = slices.get(k);
                if (slice.size() != first.size() || !slice.get(i).skuId().equals(sku)) {
                    throw new HotStoreFiguresDisagreeException("slice " + k + " holds other SKUs than slice 0: "
                            + slice + " and " + first);
                }
                StockLedger ledger = slice.get(i).ledger();
                total += ledger.total();
                reserved += ledger.reserved();
                sold += ledger.sold();
            }
            summed.add(new SkuStock(sku, new StockLedger(total, reserved, sold)));
        }
        return List.copyOf(summed);
    }
}
