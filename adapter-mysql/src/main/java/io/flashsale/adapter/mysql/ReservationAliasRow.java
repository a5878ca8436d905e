package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code reservation_alias}: a reservation refused as its request's duplicate, and the order's one. */
record ReservationAliasRow(String reservationId, String orderReservationId, String activityId, String buyerId,
                           Instant createdAt) {
}
