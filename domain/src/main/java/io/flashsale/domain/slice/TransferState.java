package io.flashsale.domain.slice;

/** Where a stock transfer between two slices stands (ADR 109). */
public enum TransferState {
    /** Recorded in the database of record; the source slice may or may not have given its units yet. */
    REQUESTED,
    /** The source slice gave {@code moved} units (its answer is kept by transfer id); the target has yet to get them. */
    TAKEN,
    /** The target slice holds the moved units, or nothing moved. Final. */
    DONE
}
