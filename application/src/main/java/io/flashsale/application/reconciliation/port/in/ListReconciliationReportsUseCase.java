package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;

public interface ListReconciliationReportsUseCase {

    /**
     * The activity's latest kept reports (drift found or something done), newest first, at most {@code max}.
     *
     * @throws ActivityNotFoundException when there is no such activity
     */
    List<ReconciliationReport> recent(ActivityId activityId, int max);

    /**
     * Per SKU whose drift waits for an operator's approval, its newest NEEDS_REVIEW report, in SKU order.
     *
     * @throws ActivityNotFoundException when there is no such activity
     */
    List<ReconciliationReport> awaitingReview(ActivityId activityId);
}
