package io.flashsale.adapter.mysql;

/** One buyer's request in one activity: what {@code uk_purchase_order_request} allows one order row for. */
record RequestKey(String activityId, String buyerId, String requestId) {
}
