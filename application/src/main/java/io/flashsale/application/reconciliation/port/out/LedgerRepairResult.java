package io.flashsale.application.reconciliation.port.out;

/** What a hot store's repair of one SKU came to. */
public enum LedgerRepairResult {
    /** Written, in one atomic step. */
    REPAIRED,
    /** Nothing written: the SKU moved since the snapshot the repair was computed from; read again and recompute. */
    RETRY,
    /** Nothing written: the hot store does not hold the activity (any more). */
    NOT_LOADED
}
