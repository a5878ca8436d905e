package io.flashsale.application.reconciliation.model;

/** What an attempt to rebuild an activity's ledger in the hot store came to. */
public enum RebuildOutcome {
    /** The hot store did not hold the activity; it was loaded from the database of record now. */
    REBUILT,
    /** The hot store holds the activity already (warmed up or rebuilt by another instance); nothing written. */
    ALREADY_LOADED,
    /**
     * Not loaded yet: another instance is rebuilding it, or accepted reservations are still on their way out of the
     * hot store's outbox. The sale keeps answering NOT_READY; asking again later finishes it.
     */
    IN_PROGRESS,
    /** The sale is over: there is nothing left to sell from a ledger, so none is loaded. */
    ENDED,
    /**
     * The hot store lost the activity while events of it were still in the pipeline (the outbox, or Kafka below the
     * end offsets taken once the outbox had drained): nothing loaded yet, the sale answers NOT_READY, and a later
     * pass rebuilds it once they have landed (ADR 30).
     */
    AWAITING_PIPELINE
}
