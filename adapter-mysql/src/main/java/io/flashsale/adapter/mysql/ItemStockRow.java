package io.flashsale.adapter.mysql;

/** A SKU of an activity with its total and the units placed orders hold, as {@code activity_item} keeps them. */
record ItemStockRow(String skuId, long stock, long sold) {
}
