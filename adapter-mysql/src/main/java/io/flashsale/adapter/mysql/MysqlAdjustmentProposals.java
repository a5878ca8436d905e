package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.AdjustmentProposalsPort;
import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.ProposalApproval;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalDecision;
import io.flashsale.domain.stock.ProposalStatus;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;

/**
 * Proposed stock adjustments in MySQL. An approval locks the proposal row, then records the adjustment exactly as
 * {@link MysqlStockAdjustments} does (locking the item row after it), then moves the proposal out of PENDING by a
 * conditional update, all in one transaction: of racing approvals one applies it and the others find it approved.
 */
public class MysqlAdjustmentProposals implements AdjustmentProposalsPort {

    private final AdjustmentProposalDao dao;
    private final MysqlStockAdjustments adjustments;
    private final TransactionOperations transactions;

    MysqlAdjustmentProposals(AdjustmentProposalDao dao, MysqlStockAdjustments adjustments,
                             TransactionOperations transactions) {
        this.dao = dao;
        this.adjustments = adjustments;
        this.transactions = transactions;
    }

    @Override
    public AdjustmentProposal propose(ActivityId activityId, SkuId skuId, long delta, String reason,
                                      String proposedBy, Instant at, Instant expiresAt) {
        // Checked before it is written: the row says only what a proposal may say.
        AdjustmentProposal unsaved = AdjustmentProposal.pending(0, activityId, skuId, delta, reason, proposedBy,
                millis(at), millis(expiresAt));
        AdjustmentProposalRow row = new AdjustmentProposalRow(0, activityId.value(), skuId.value(), delta, reason,
                proposedBy, unsaved.proposedAt(), unsaved.expiresAt(), ProposalStatus.PENDING.name(), null, null, null);
        long id = transactions.execute(status -> {
            dao.insertProposal(row);
            return dao.selectLastInsertId();
        });
        return AdjustmentProposal.pending(id, activityId, skuId, delta, reason, proposedBy, unsaved.proposedAt(),
                unsaved.expiresAt());
    }

    @Override
    public Optional<AdjustmentProposal> find(ActivityId activityId, long id) {
        return Optional.ofNullable(dao.selectProposal(activityId.value(), id)).map(MysqlAdjustmentProposals::toProposal);
    }

    @Override
    public List<AdjustmentProposal> findByActivity(ActivityId activityId) {
        return dao.selectByActivity(activityId.value()).stream().map(MysqlAdjustmentProposals::toProposal).toList();
    }

    @Override
    public ProposalApproval approve(AdjustmentProposal proposal, String approver, Instant at) {
        Instant decidedAt = millis(at);
        return transactions.execute(status -> {
            AdjustmentProposalRow locked = dao.selectProposalForUpdate(proposal.activityId().value(), proposal.id());
            if (locked == null) {
                throw new IllegalStateException("proposal " + proposal.id() + " vanished; proposals are never deleted");
            }
            AdjustmentProposal current = toProposal(locked);
            if (!(current.approvalBy(approver, decidedAt) instanceof ProposalDecision.Allowed)) {
                return new ProposalApproval.NoLongerPending(current);
            }
            AdjustmentRecording recording = adjustments.recordInTransaction(current.activityId(), current.skuId(),
                    current.delta(), current.proposedBy(), current.reason(), decidedAt);
            if (!(recording instanceof AdjustmentRecording.Recorded recorded)) {
                return new ProposalApproval.Decided(current, recording);
            }
            long adjustmentId = recorded.adjustment().id();
            if (dao.approve(current.id(), approver, decidedAt, adjustmentId) != 1) {
                // Cannot happen under the row lock; throwing rolls the adjustment back with it.
                throw new IllegalStateException("proposal " + current.id() + " was locked pending, yet not approved");
            }
            return new ProposalApproval.Decided(current.closed(ProposalStatus.APPROVED, approver, decidedAt,
                    adjustmentId), recording);
        });
    }

    @Override
    public Optional<AdjustmentProposal> close(AdjustmentProposal proposal, ProposalStatus to, String operator,
                                              Instant at) {
        if (to != ProposalStatus.REJECTED && to != ProposalStatus.WITHDRAWN) {
            throw new IllegalArgumentException("a proposal closes unapplied as REJECTED or WITHDRAWN, not " + to);
        }
        AdjustmentProposal closed = proposal.closed(to, operator, millis(at), null);
        if (dao.close(proposal.id(), to.name(), operator, closed.decidedAt()) != 1) {
            return Optional.empty();
        }
        return Optional.of(closed);
    }

    private static Instant millis(Instant at) {
        return at.truncatedTo(ChronoUnit.MILLIS);
    }

    private static AdjustmentProposal toProposal(AdjustmentProposalRow row) {
        return new AdjustmentProposal(row.id(), new ActivityId(row.activityId()), new SkuId(row.skuId()), row.delta(),
                row.reason(), row.proposedBy(), row.proposedAt(), row.expiresAt(), ProposalStatus.valueOf(row.status()),
                row.decidedBy(), row.decidedAt(), row.adjustmentId());
    }
}
