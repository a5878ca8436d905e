package io.flashsale.adapter.mysql;

/**
 * A SKU of an activity as a batch of orders weighs it: the per-user limit that applies (the item's override, else the
 * activity's) and the activity's payment timeout. Read without a lock: neither changes during a sale.
 */
record ItemTermsRow(String activityId, String skuId, int perUserLimit, long paymentTimeoutSeconds) {
}
