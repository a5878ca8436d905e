package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.reconciliation.model.AdjustmentProposalNotFoundException;
import io.flashsale.application.reconciliation.model.ProposalApprovalResult;
import io.flashsale.application.reconciliation.model.ProposalRejectionResult;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.in.DecideAdjustmentProposalUseCase;
import io.flashsale.application.reconciliation.port.in.ListAdjustmentProposalsUseCase;
import io.flashsale.application.reconciliation.port.in.ProposeStockAdjustmentUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.out.AdjustmentProposalsPort;
import io.flashsale.application.reconciliation.port.out.ProposalApproval;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalDecision;
import io.flashsale.domain.stock.ProposalStatus;
import io.flashsale.domain.stock.StockAdjustment;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Stock adjustments under four eyes (ADR 84): one operator proposes, a different one approves before the proposal
 * expires, and only then is it applied, on the path every adjustment takes ({@link StockAdjustmentService}), followed
 * by a reconciliation of the whole sale. The database of record decides a race between approvals: the proposal row
 * leaves PENDING once, in the transaction that records the adjustment.
 */
public class AdjustmentApprovalService implements ProposeStockAdjustmentUseCase, DecideAdjustmentProposalUseCase,
        ListAdjustmentProposalsUseCase {

    private static final System.Logger LOG = System.getLogger(AdjustmentApprovalService.class.getName());

    private final ActivityLookupPort activities;
    private final AdjustmentProposalsPort proposals;
    private final StockAdjustmentService adjustments;
    private final ReconcileActivityUseCase reconciliation;
    private final Clock clock;
    private final Duration ttl;

    public AdjustmentApprovalService(ActivityLookupPort activities, AdjustmentProposalsPort proposals,
                                     StockAdjustmentService adjustments, ReconcileActivityUseCase reconciliation,
                                     Clock clock, Duration ttl) {
        if (ttl == null || !ttl.isPositive()) {
            throw new IllegalArgumentException("a proposal's time to live must be positive: " + ttl);
        }
        this.activities = activities;
        this.proposals = proposals;
        this.adjustments = adjustments;
        this.reconciliation = reconciliation;
        this.clock = clock;
        this.ttl = ttl;
    }

    @Override
    public AdjustmentProposal propose(ActivityId activityId, SkuId skuId, long delta, String reason, String operator) {
        StockAdjustment.requireDelta(delta);
        StockAdjustment.requireReason(reason);
        StockAdjustment.requireOperator(operator);
        adjustments.adjustable(activityId, skuId);
        Instant now = clock.instant();
        return proposals.propose(activityId, skuId, delta, reason, operator, now, now.plus(ttl));
    }

    @Override
    public ProposalApprovalResult approve(ActivityId activityId, long proposalId, String operator) {
        StockAdjustment.requireOperator(operator);
        AdjustmentProposal proposal = existing(activityId, proposalId);
        Instant now = clock.instant();
        ProposalDecision decision = proposal.approvalBy(operator, now);
        if (!(decision instanceof ProposalDecision.Allowed)) {
            return new ProposalApprovalResult.Refused(proposal, decision);
        }
        StockAdjustmentService.AdjustableItem target = adjustments.adjustable(activityId, proposal.skuId());
        return switch (proposals.approve(proposal, operator, now)) {
            case ProposalApproval.NoLongerPending lost ->
                    new ProposalApprovalResult.Refused(lost.current(), lost.current().approvalBy(operator, now));
            case ProposalApproval.Decided decided -> switch (adjustments.settle(target, decided.recording())) {
                case StockAdjustmentResult.Adjusted adjusted ->
                        new ProposalApprovalResult.Approved(decided.proposal(), adjusted, reconcileSale(activityId));
                case StockAdjustmentResult refusal -> new ProposalApprovalResult.StockRefused(decided.proposal(), refusal);
            };
        };
    }

    /**
     * The adjustment is committed by now: a reconciliation that fails must not read as a failed approval (a retry would
     * only meet a closed proposal). The scheduled reconciliation covers the sale in any case.
     */
    private ActivityReconciliation reconcileSale(ActivityId activityId) {
        try {
            return reconciliation.reconcile(activityId);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "the reconciliation after an approved stock adjustment of {0} failed; the scheduled"
                    + " one will cover it: {1}", activityId.value(), e.toString());
            return null;
        }
    }

    @Override
    public ProposalRejectionResult reject(ActivityId activityId, long proposalId, String operator) {
        StockAdjustment.requireOperator(operator);
        AdjustmentProposal proposal = existing(activityId, proposalId);
        ProposalDecision decision = proposal.rejectionBy(operator);
        if (!(decision instanceof ProposalDecision.Allowed(ProposalStatus to))) {
            return new ProposalRejectionResult.Refused(proposal, decision);
        }
        return proposals.close(proposal, to, operator, clock.instant())
                .<ProposalRejectionResult>map(ProposalRejectionResult.Closed::new)
                .orElseGet(() -> {
                    AdjustmentProposal current = existing(activityId, proposalId);
                    return new ProposalRejectionResult.Refused(current, current.rejectionBy(operator));
                });
    }

    @Override
    public List<AdjustmentProposal> proposals(ActivityId activityId, boolean pendingOnly) {
        if (activities.findById(activityId).isEmpty()) {
            throw new ActivityNotFoundException(activityId);
        }
        Instant now = clock.instant();
        return proposals.findByActivity(activityId).stream()
                .filter(proposal -> !pendingOnly || proposal.statusAt(now) == ProposalStatus.PENDING)
                .toList();
    }

    @Override
    public AdjustmentProposal proposal(ActivityId activityId, long proposalId) {
        return existing(activityId, proposalId);
    }

    private AdjustmentProposal existing(ActivityId activityId, long proposalId) {
        return proposals.find(activityId, proposalId)
                .orElseThrow(() -> new AdjustmentProposalNotFoundException(activityId, proposalId));
    }
}
