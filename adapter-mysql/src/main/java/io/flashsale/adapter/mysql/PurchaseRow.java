package io.flashsale.adapter.mysql;

/** The units one buyer holds of one SKU of one activity ({@code buyer_purchase}). */
record PurchaseRow(String activityId, String buyerId, String skuId, long quantity) {
}
