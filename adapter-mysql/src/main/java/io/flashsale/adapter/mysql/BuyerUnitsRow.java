package io.flashsale.adapter.mysql;

/** Units of one SKU one buyer holds in placed orders, as {@code buyer_purchase} keeps them. */
record BuyerUnitsRow(String buyerId, long units) {
}
