package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.in.ListReconciliationReportsUseCase;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;

/** The reports reconciliation kept of a sale: the latest ones, and those awaiting an operator's review. */
public final class ReconciliationReportsService implements ListReconciliationReportsUseCase {

    static final int MAX_REPORTS = 1000;

    private final ActivityLookupPort activities;
    private final ReconciliationReportsPort reports;

    public ReconciliationReportsService(ActivityLookupPort activities, ReconciliationReportsPort reports) {
        this.activities = activities;
        this.reports = reports;
    }

    @Override
    public List<ReconciliationReport> recent(ActivityId activityId, int max) {
        if (max < 1 || max > MAX_REPORTS) {
            throw new IllegalArgumentException("max must be between 1 and " + MAX_REPORTS + ", was " + max);
        }
        requireKnown(activityId);
        return reports.findRecent(activityId, max);
    }

    @Override
    public List<ReconciliationReport> awaitingReview(ActivityId activityId) {
        requireKnown(activityId);
        return reports.awaitingReview(activityId);
    }

    private void requireKnown(ActivityId activityId) {
        if (activities.findById(activityId).isEmpty()) {
            throw new ActivityNotFoundException(activityId);
        }
    }
}
