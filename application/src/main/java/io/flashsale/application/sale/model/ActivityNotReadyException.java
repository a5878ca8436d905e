package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

/** The activity exists but its stock is not loaded into the hot store (not warmed up). */
public class ActivityNotReadyException extends RuntimeException {

    private final ActivityId activityId;

    public ActivityNotReadyException(ActivityId activityId) {
        super("activity " + activityId + " is not warmed up");
        this.activityId = activityId;
    }

    public ActivityId activityId() {
        return activityId;
    }
}
