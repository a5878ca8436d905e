package io.flashsale.adapter.mysql;

import java.time.Instant;

/** A stock adjustment as reconciliation needs it: which one, by how much, when. */
record AdjustmentFigureRow(long id, long delta, Instant createdAt) {
}
