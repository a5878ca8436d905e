package io.flashsale.domain.stock;

import java.time.Instant;

/** Whether an operator may close an {@link AdjustmentProposal}, and if not, why. */
public sealed interface ProposalDecision {

    /** Allowed: the proposal closes with {@code to}. */
    record Allowed(ProposalStatus to) implements ProposalDecision {
    }

    /** Refused: the proposer cannot approve their own proposal. */
    record SameOperator(String operator) implements ProposalDecision {
    }

    /** Refused: it was left pending past its expiry. */
    record Expired(Instant expiresAt) implements ProposalDecision {
    }

    /** Refused: it was closed already ({@code status}). */
    record Closed(ProposalStatus status) implements ProposalDecision {
    }
}
