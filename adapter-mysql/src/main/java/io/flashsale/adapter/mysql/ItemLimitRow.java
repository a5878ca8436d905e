package io.flashsale.adapter.mysql;

/** A SKU of an activity with the per-user limit that applies to it: the item's override, else the activity's. */
record ItemLimitRow(String skuId, int perUserLimit) {
}
