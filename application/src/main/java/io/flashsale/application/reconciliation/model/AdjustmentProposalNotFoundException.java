package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.activity.ActivityId;

public class AdjustmentProposalNotFoundException extends RuntimeException {

    public AdjustmentProposalNotFoundException(ActivityId activityId, long proposalId) {
        super("activity " + activityId.value() + " has no stock adjustment proposal " + proposalId);
    }
}
