package io.flashsale.domain.reconciliation;

/** Where a reservation the hot store holds stands between the two stores, and so how it counts. */
public enum ReservationSettlement {
    /**
     * RESERVED, no order yet, on its way (in the outbox, in the broker beyond the consumer's position, or dead-lettered
     * awaiting an operator): counts as reserved.
     */
    IN_FLIGHT,
    /** RESERVED, no order, and provably nowhere in the pipeline: its event was lost; re-driven once per window. */
    UNKNOWN,
    /** RESERVED, and the database settled it within the grace period: the pipeline tells the hot store shortly. */
    SETTLED_PENDING,
    /** RESERVED, and the database settled it longer ago than the grace period: the hot store is told by reconciliation. */
    SETTLED_OVERDUE,
    /** FAILED: the database never sold its units, yet the hot store holds them until reconciliation releases them. */
    FAILED_HELD,
    /** ORDERED, and the database closed the order and owes the hot store its restore: the sweep gives the units back. */
    RESTORE_PENDING,
    /**
     * CANCELLED by the buyer while RESERVED within the grace period, yet the database still holds its order ORDERED:
     * the pipeline cancels the order there shortly.
     */
    CANCEL_PENDING,
    /**
     * CANCELLED by the buyer while RESERVED longer ago than the grace period, yet the database still holds its order
     * ORDERED: the buyer's cancellation won in the hot store while the order committed, and the pipeline's cancel
     * never came (ADR 32). Counts as cancelled; reconciliation cancels the order in the database, which gives its
     * units back there once (the hot store gave them back when the buyer cancelled).
     */
    CANCEL_OVERDUE,
    /**
     * Both stores agree on it, or the database's word on it is final: a buyer's cancel whose order was paid before the
     * database heard of the cancel counts as the paid order it is, and the hot store is repaired to sell its units.
     */
    SETTLED
}
