package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.AdjustmentProposalNotFoundException;
import io.flashsale.application.reconciliation.model.ProposalApprovalResult;
import io.flashsale.application.reconciliation.model.ProposalRejectionResult;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.domain.activity.ActivityId;

public interface DecideAdjustmentProposalUseCase {

    /**
     * Approves a pending proposal of another operator: its adjustment is applied once (the database of record, then
     * the hot store, then the SKU reconciled, as every adjustment), then the whole sale is reconciled.
     *
     * @param operator the authenticated operator approving it
     * @throws AdjustmentProposalNotFoundException when the activity has no such proposal
     * @throws ActivityArchivedException           when the sale was archived
     */
    ProposalApprovalResult approve(ActivityId activityId, long proposalId, String operator);

    /**
     * Closes a pending proposal unapplied: withdrawn when its proposer does it, rejected when another operator does.
     *
     * @throws AdjustmentProposalNotFoundException when the activity has no such proposal
     */
    ProposalRejectionResult reject(ActivityId activityId, long proposalId, String operator);
}
