package io.flashsale.domain.reconciliation;

/** What reconciliation did about one SKU; a run that did several reports the first of these that applies. */
public enum ReconciliationAction {
    /** Nothing needed doing. */
    NONE,
    /** The hot store's ledger was loaded from the database of record after it was found empty. */
    REBUILT,
    /** The SKU's ledger and holdings were rewritten from the database of record. */
    REPAIRED,
    /**
     * The hot store was told what the database settled long ago (order placed, paid, refused or cancelled), or the
     * database what the hot store settled: a buyer's cancellation that won there while the order committed.
     */
    CONFIRMED,
    /** The event of a reservation the database never heard of was appended to the outbox again. */
    REDRIVEN,
    /** Drift that could not be repaired safely now (stores kept moving, or the database has moves on their way). */
    DEFERRED,
    /**
     * Drift larger than the automatic repair may rewrite: left as found, for an operator to approve the repair
     * (ADR 85). The report's {@code driftUnits} is the residual measured.
     */
    NEEDS_REVIEW
}
