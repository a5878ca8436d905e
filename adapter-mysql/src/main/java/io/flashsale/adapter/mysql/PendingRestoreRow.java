package io.flashsale.adapter.mysql;

/** An order still owing the hot store its restore, with the status it was closed in. */
record PendingRestoreRow(String reservationId, String status) {
}
