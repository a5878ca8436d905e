package io.flashsale.adapter.mysql;

import java.time.Instant;

/** How {@code purchase_order} settled one reservation: its status, when, and whether it ever became an order. */
record SettlementRow(String reservationId, String status, Instant placedAt, Instant orderedAt) {
}
