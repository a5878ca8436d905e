package io.flashsale.adapter.mysql;

/** A number of units of one SKU, as a figure query sums them. */
record SkuUnitsRow(String skuId, long units) {
}
