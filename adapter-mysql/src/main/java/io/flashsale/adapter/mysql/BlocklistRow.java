package io.flashsale.adapter.mysql;

import java.time.Instant;

/** A row of {@code blocklist_entry} or of its audit {@code blocklist_change} ({@code action} null for an entry). */
record BlocklistRow(String action, String kind, String value, String reason, String operator, Instant at) {
}
