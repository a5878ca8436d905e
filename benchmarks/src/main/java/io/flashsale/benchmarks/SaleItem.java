package io.flashsale.benchmarks;

import java.util.concurrent.ThreadLocalRandom;

/** One SKU on sale for one run: a fresh id each time, so runs never share state on the servers. */
public record SaleItem(String sku, long stock, int perBuyerLimit) {

    public SaleItem {
        if (sku == null || !sku.matches("[a-z0-9-]{1,40}")) {
            throw new IllegalArgumentException("sku ids here are [a-z0-9-]{1,40}: " + sku);
        }
        if (stock < 0 || perBuyerLimit < 1) {
            throw new IllegalArgumentException("stock >= 0 and limit >= 1, were " + stock + ", " + perBuyerLimit);
        }
    }

    public static SaleItem fresh(long stock, int perBuyerLimit) {
        return new SaleItem("sku-" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 50), 36), stock,
                perBuyerLimit);
    }
}
