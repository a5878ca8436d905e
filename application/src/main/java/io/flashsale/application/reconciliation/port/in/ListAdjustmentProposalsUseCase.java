package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.AdjustmentProposalNotFoundException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.AdjustmentProposal;

import java.util.List;

public interface ListAdjustmentProposalsUseCase {

    /**
     * The activity's proposals, oldest first; only those still pending (and not expired) when {@code pendingOnly}.
     *
     * @throws ActivityNotFoundException when there is no such activity
     */
    List<AdjustmentProposal> proposals(ActivityId activityId, boolean pendingOnly);

    /** @throws AdjustmentProposalNotFoundException when the activity has no such proposal */
    AdjustmentProposal proposal(ActivityId activityId, long proposalId);
}
