package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

/**
 * A warm-up of a sale the hot store lost after it had been loaded: its reservations may still be anywhere in the
 * pipeline, so loading the original totals could sell its stock twice. The sale is loaded again by the gated rebuild
 * (reconciliation) once what was in flight has landed (ADR 30).
 */
public class SaleHasReservationsException extends RuntimeException {

    private final ActivityId activityId;

    public SaleHasReservationsException(ActivityId activityId) {
        super("activity " + activityId + " was loaded before and the hot store lost it; it is rebuilt from the"
                + " database of record, never warmed up again");
        this.activityId = activityId;
    }

    public ActivityId activityId() {
        return activityId;
    }
}
