package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.ProposalDecision;

import java.util.Optional;

/** What an approval came to. */
public sealed interface ProposalApprovalResult {

    /**
     * Approved and applied, once.
     *
     * @param reconciliation the reconciliation of the whole sale that followed; null when it could not run (the
     *                       scheduled reconciliation catches up)
     */
    record Approved(AdjustmentProposal proposal, StockAdjustmentResult.Adjusted adjusted,
                    ActivityReconciliation reconciliation) implements ProposalApprovalResult {

        public Optional<ActivityReconciliation> saleReconciliation() {
            return Optional.ofNullable(reconciliation);
        }
    }

    /** Refused, nothing changed: the proposer's own, expired, or closed already. */
    record Refused(AdjustmentProposal proposal, ProposalDecision why) implements ProposalApprovalResult {
    }

    /**
     * Refused by the stock as it is now, nothing changed, and the proposal stays pending: {@code refusal} is
     * {@link StockAdjustmentResult.BelowSold} or {@link StockAdjustmentResult.AboveMaximum}.
     */
    record StockRefused(AdjustmentProposal proposal, StockAdjustmentResult refusal) implements ProposalApprovalResult {

        public StockRefused {
            if (refusal instanceof StockAdjustmentResult.Adjusted) {
                throw new IllegalArgumentException("an applied adjustment is no refusal");
            }
        }
    }
}
