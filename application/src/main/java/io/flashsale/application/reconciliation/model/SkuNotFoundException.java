package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;

/** The activity exists but offers no such SKU. */
public class SkuNotFoundException extends RuntimeException {

    private final ActivityId activityId;
    private final SkuId skuId;

    public SkuNotFoundException(ActivityId activityId, SkuId skuId) {
        super("activity " + activityId + " has no SKU " + skuId);
        this.activityId = activityId;
        this.skuId = skuId;
    }

    public ActivityId activityId() {
        return activityId;
    }

    public SkuId skuId() {
        return skuId;
    }
}
