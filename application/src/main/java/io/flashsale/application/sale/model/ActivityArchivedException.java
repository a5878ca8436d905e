package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

/** The sale ended and was archived: it is never loaded into the hot store again. */
public class ActivityArchivedException extends RuntimeException {

    private final ActivityId activityId;

    public ActivityArchivedException(ActivityId activityId) {
        super("activity " + activityId + " is archived");
        this.activityId = activityId;
    }

    public ActivityId activityId() {
        return activityId;
    }
}
