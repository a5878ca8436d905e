package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalStatus;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Proposed stock adjustments in the database of record, and the one transaction that applies an approved one. */
public interface AdjustmentProposalsPort {

    /** Appends a pending proposal; changes no stock. */
    AdjustmentProposal propose(ActivityId activityId, SkuId skuId, long delta, String reason, String proposedBy,
                               Instant at, Instant expiresAt);

    Optional<AdjustmentProposal> find(ActivityId activityId, long id);

    /** Every proposal of the activity, oldest first. */
    List<AdjustmentProposal> findByActivity(ActivityId activityId);

    /**
     * In one transaction, so that racing approvals apply it once: while the proposal is still pending at {@code at}
     * and {@code approver} is not its proposer, records its adjustment exactly as
     * {@link StockAdjustmentsPort#record} does (in the proposer's name) and marks it approved by
     * {@code approver}, naming the adjustment. A refused recording leaves the proposal pending.
     */
    ProposalApproval approve(AdjustmentProposal proposal, String approver, Instant at);

    /**
     * Closes a still pending proposal unapplied ({@code REJECTED} or {@code WITHDRAWN}); empty when it was closed
     * meanwhile.
     */
    Optional<AdjustmentProposal> close(AdjustmentProposal proposal, ProposalStatus to, String operator, Instant at);
}
