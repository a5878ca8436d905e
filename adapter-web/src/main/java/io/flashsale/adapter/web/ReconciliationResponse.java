package io.flashsale.adapter.web;

import io.flashsale.application.reconciliation.model.ActivityReconciliation;

import java.util.List;

/** An on-demand reconciliation: what Redis held of the activity when it began, and one report per SKU. */
public record ReconciliationResponse(String activityId, String hotStore, List<ReconciliationReportResponse> reports) {

    static ReconciliationResponse of(ActivityReconciliation reconciliation) {
        return new ReconciliationResponse(reconciliation.activityId().value(), reconciliation.hotStore().name(),
                ReconciliationReportResponse.of(reconciliation.reports()));
    }
}
