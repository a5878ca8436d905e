package io.flashsale.adapter.mysql;

/**
 * A SKU of an activity with the per-user limit that applies to it (the item's override, else the activity's), and the
 * activity's payment timeout, which an order of it must be paid within.
 */
record ItemLimitRow(String skuId, int perUserLimit, long paymentTimeoutSeconds) {
}
