package io.flashsale.adapter.mysql;

/** Units a batch of orders takes from one SKU of one activity. */
record SkuSaleRow(String activityId, String skuId, long quantity) {
}
