package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

/**
 * An operation that would read or write the sale as one ledger, asked of a sale in slices (ADR 109) before it is done
 * slice by slice: refused whole, nothing read or written, so no slice is ever given the whole sale's figures.
 */
public class SaleInSlicesException extends RuntimeException {

    private final ActivityId activityId;
    private final String operation;

    /** @param operation what was refused, as a noun: "reconciliation", "a rebuild", "a stock adjustment" */
    public SaleInSlicesException(ActivityId activityId, int slices, String operation) {
        super(operation + " of sale " + activityId + " in " + slices + " slices is not done slice by slice yet");
        this.activityId = activityId;
        this.operation = operation;
    }

    public ActivityId activityId() {
        return activityId;
    }

    public String operation() {
        return operation;
    }
}
