package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalDecision;

/** What a rejection (or its proposer's withdrawal) came to. */
public sealed interface ProposalRejectionResult {

    /** Closed unapplied: REJECTED or WITHDRAWN. */
    record Closed(AdjustmentProposal proposal) implements ProposalRejectionResult {
    }

    /** Refused, nothing changed: it was closed already. */
    record Refused(AdjustmentProposal proposal, ProposalDecision why) implements ProposalRejectionResult {
    }
}
