package io.flashsale.domain.reconciliation;

/** What reconciliation found for one SKU, the most dangerous finding first. */
public enum ReconciliationClassification {
    /** The hot store matches the database of record. */
    NONE,
    /** The hot store would sell more than the database allows (more available, or a buyer counted short of the limit). */
    REDIS_AHEAD,
    /** The hot store holds a reservation the database has no trace of and that is not on its way: its event was lost. */
    UNKNOWN_RESERVATION,
    /** The database has an order the hot store does not reflect: the news never reached it, or it lost the order. */
    MISSING_RESERVATION,
    /** The hot store withholds units the database says are free, or disagrees in some other way. */
    REDIS_BEHIND
}
