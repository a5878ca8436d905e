package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;
import java.util.Objects;

/**
 * One reconciliation of a whole activity.
 *
 * @param reports one per SKU, in item order; empty when the hot store does not hold the activity
 */
public record ActivityReconciliation(ActivityId activityId, HotStoreState hotStore, List<ReconciliationReport> reports) {

    public ActivityReconciliation {
        Objects.requireNonNull(activityId, "activityId");
        Objects.requireNonNull(hotStore, "hotStore");
        reports = List.copyOf(reports);
    }

    /** What the hot store held when the reconciliation began. */
    public enum HotStoreState {
        /** The activity was there and was reconciled. */
        LOADED,
        /** The activity was missing while its sale is open: it was rebuilt from the database of record, then reconciled. */
        REBUILT,
        /** The activity is not there and its sale is not open (not warmed up yet, or over): nothing to reconcile. */
        NOT_LOADED,
        /**
         * The activity is missing while its sale is open, and events of it are still in the pipeline: it answers
         * NOT_READY until they have landed, then a pass rebuilds it (ADR 30).
         */
        AWAITING_PIPELINE
    }
}
