package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.time.Instant;
import java.util.List;

/** Reconciliation reports worth keeping (drift found, or something done), in the database of record. */
public interface ReconciliationReportsPort {

    void save(ReconciliationReport report);

    /** The activity's latest reports, newest first, at most {@code max}. */
    List<ReconciliationReport> findRecent(ActivityId activityId, int max);

    /**
     * The activity's SKUs whose drift waits for an operator: per SKU the newest NEEDS_REVIEW report not closed yet,
     * in SKU order.
     */
    List<ReconciliationReport> awaitingReview(ActivityId activityId);

    /**
     * Closes every open NEEDS_REVIEW report of the SKU, naming who closed it (the approving operator, or
     * reconciliation when the drift went away by itself) and when.
     *
     * @return how many were open; 0 when another caller closed them first
     */
    int closeReviews(ActivityId activityId, SkuId skuId, String closedBy, Instant closedAt);
}
