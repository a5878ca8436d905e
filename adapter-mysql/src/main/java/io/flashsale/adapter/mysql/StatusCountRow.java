package io.flashsale.adapter.mysql;

/** How many orders of an activity are in one status. */
record StatusCountRow(String status, long orders) {
}
