package io.flashsale.adapter.mysql;

import java.time.Instant;

/**
 * One row of {@code activity}; times hold at most millisecond precision, as DATETIME(3) keeps them.
 *
 * @param slices how many slices the sale is cut into (ADR 109); 1 for every sale created before slices
 */
record ActivityRow(String id, String name, Instant startsAt, Instant endsAt,
                   int perUserLimit, long paymentTimeoutSeconds, boolean paused, int slices) {
}
