package io.flashsale.adapter.mysql;

/** One row of {@code purchase_order_line}; {@code lineIndex} keeps the order the reservation listed its lines in. */
record OrderLineRow(String reservationId, String skuId, int lineIndex, int quantity) {
}
