package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;

/** An approval of a SKU whose drift waits for no operator: never reported NEEDS_REVIEW, or already approved. */
public class NoRepairAwaitingApprovalException extends RuntimeException {

    public NoRepairAwaitingApprovalException(ActivityId activityId, SkuId skuId) {
        super("no repair of SKU " + skuId + " of activity " + activityId + " waits for approval");
    }
}
