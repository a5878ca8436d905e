package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

public class ActivityAlreadyExistsException extends RuntimeException {

    private final ActivityId activityId;

    public ActivityAlreadyExistsException(ActivityId activityId) {
        super("activity " + activityId + " already exists");
        this.activityId = activityId;
    }

    public ActivityId activityId() {
        return activityId;
    }
}
