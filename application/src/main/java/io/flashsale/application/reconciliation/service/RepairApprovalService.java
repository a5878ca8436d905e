package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.NoRepairAwaitingApprovalException;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.port.in.ApproveRepairUseCase;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.time.Clock;

/**
 * An operator's approval of a repair that reconciliation held back for review (ADR 85): the SKU is read and reckoned
 * afresh and whatever residual it shows now is repaired from the database of record, in the operator's name.
 */
public final class RepairApprovalService implements ApproveRepairUseCase {

    static final int MAX_OPERATOR = 100;

    private final UnarchivedSales sales;
    private final SkuReconciler skus;
    private final ReconciliationReportsPort reports;
    private final Clock clock;

    /** @param activities the sales, looked up and checked for their archive, as one store */
    public <S extends ActivityLookupPort & ActivityArchivesPort> RepairApprovalService(
            S activities, ReconcilingPorts reconciling, Clock clock, ReconciliationSettings settings) {
        this.sales = new UnarchivedSales(activities, activities);
        this.skus = reconciling.skuReconciler(clock, settings);
        this.reports = reconciling.reports();
        this.clock = clock;
    }

    @Override
    public ReconciliationReport approveRepair(ActivityId activityId, SkuId skuId, String operator) {
        if (operator == null || operator.isBlank() || operator.length() > MAX_OPERATOR) {
            throw new IllegalArgumentException("operator must be 1 to " + MAX_OPERATOR + " characters, was " + operator);
        }
        Activity activity = sales.get(activityId);
        ActivityItem item = activity.item(skuId).orElseThrow(() -> new SkuNotFoundException(activityId, skuId));
        if (reports.awaitingReview(activityId).stream().noneMatch(review -> review.skuId().equals(skuId))) {
            throw new NoRepairAwaitingApprovalException(activityId, skuId);
        }
        // Read and reckoned afresh: the residual the operator saw may have changed, and only today's is repaired.
        ReconciliationReport report = skus.reconcileApproved(activity, item, operator)
                .orElseThrow(() -> new ActivityNotReadyException(activityId));
        if (report.action() != ReconciliationAction.DEFERRED) {
            reports.closeReviews(activityId, skuId, operator, clock.instant());
        }
        return report;
    }
}
