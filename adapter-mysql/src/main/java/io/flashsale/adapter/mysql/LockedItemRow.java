package io.flashsale.adapter.mysql;

/** A SKU's stock and sold units, read under the batch transaction's row lock. */
record LockedItemRow(String activityId, String skuId, long stock, long sold) {
}
