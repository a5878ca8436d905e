package io.flashsale.adapter.web;

import io.flashsale.domain.stock.AdjustmentProposal;

import java.time.Instant;

/**
 * One stock adjustment proposal. {@code status} is PENDING, APPROVED, REJECTED, WITHDRAWN, or EXPIRED (pending past
 * {@code expiresAt}); {@code decidedBy}/{@code decidedAt} are null while undecided, {@code adjustmentId} names the
 * applied adjustment once approved.
 */
public record AdjustmentProposalResponse(long id, String skuId, long delta, String reason, String status,
                                         String proposedBy, Instant proposedAt, Instant expiresAt, String decidedBy,
                                         Instant decidedAt, Long adjustmentId) {

    static AdjustmentProposalResponse of(AdjustmentProposal proposal, Instant now) {
        return new AdjustmentProposalResponse(proposal.id(), proposal.skuId().value(), proposal.delta(),
                proposal.reason(), proposal.statusAt(now).name(), proposal.proposedBy(), proposal.proposedAt(),
                proposal.expiresAt(), proposal.decidedBy(), proposal.decidedAt(), proposal.adjustmentId());
    }
}
