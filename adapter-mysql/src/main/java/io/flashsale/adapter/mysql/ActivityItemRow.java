package io.flashsale.adapter.mysql;

/** One row of {@code activity_item}; {@code itemIndex} keeps the order the items were created in. */
record ActivityItemRow(String activityId, String skuId, int itemIndex, long stock,
                       Integer perUserLimit, int segments) {
}
