package io.flashsale.domain.stock;

/** Where an {@link AdjustmentProposal} stands. */
public enum ProposalStatus {
    /** Waiting for another operator's approval; nothing changed yet. */
    PENDING,
    /** Approved by another operator and applied, once. */
    APPROVED,
    /** Closed unapplied by another operator. */
    REJECTED,
    /** Closed unapplied by its proposer. */
    WITHDRAWN,
    /** Still pending past its expiry: it can no longer be approved. Derived, never stored. */
    EXPIRED
}
