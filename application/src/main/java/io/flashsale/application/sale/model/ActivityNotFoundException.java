package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

public class ActivityNotFoundException extends RuntimeException {

    private final ActivityId activityId;

    public ActivityNotFoundException(ActivityId activityId) {
        super("activity " + activityId + " does not exist");
        this.activityId = activityId;
    }

    public ActivityId activityId() {
        return activityId;
    }
}
