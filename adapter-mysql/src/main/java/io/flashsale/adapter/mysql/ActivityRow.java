package io.flashsale.adapter.mysql;

import java.time.Instant;

/** One row of {@code activity}; times hold at most millisecond precision, as DATETIME(3) keeps them. */
record ActivityRow(String id, String name, Instant startsAt, Instant endsAt,
                   int perUserLimit, long paymentTimeoutSeconds, boolean paused) {
}
