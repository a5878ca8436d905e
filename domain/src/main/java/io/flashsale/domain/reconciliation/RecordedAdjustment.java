package io.flashsale.domain.reconciliation;

import java.time.Instant;
import java.util.Objects;

/** An audited change of a SKU's total as the database of record applied it; the hot store applies it after. */
public record RecordedAdjustment(long id, long delta, Instant createdAt) {

    public RecordedAdjustment {
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
