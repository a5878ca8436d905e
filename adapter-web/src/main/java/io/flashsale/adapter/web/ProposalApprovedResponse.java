package io.flashsale.adapter.web;

import io.flashsale.application.reconciliation.model.ProposalApprovalResult;

import java.time.Instant;

/**
 * An approved proposal, the adjustment it became (with what Redis did and the SKU's reconciliation, as
 * {@link StockAdjustedResponse}), and the reconciliation of the whole sale that followed (null when it could not run;
 * the scheduled reconciliation covers the sale).
 */
public record ProposalApprovedResponse(AdjustmentProposalResponse proposal, StockAdjustedResponse applied,
                                       ReconciliationResponse reconciliation) {

    static ProposalApprovedResponse of(ProposalApprovalResult.Approved approved, Instant now) {
        return new ProposalApprovedResponse(AdjustmentProposalResponse.of(approved.proposal(), now),
                StockAdjustedResponse.of(approved.adjusted()),
                approved.saleReconciliation().map(ReconciliationResponse::of).orElse(null));
    }
}
