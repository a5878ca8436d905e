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
import io.flashsale.domain.slice.SaleSlice;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An operator's approval of a repair that reconciliation held back for review (ADR 85): the SKU is read and reckoned
 * afresh and whatever residual it shows now is repaired from the database of record, in the operator's name.
 */
public final class RepairApprovalService implements ApproveRepairUseCase {

    static final int MAX_OPERATOR = 100;

    private final UnarchivedSales sales;
    private final SkuReconciler skus;
    private final ReconcilingPorts slices;
    private final ReconciliationReportsPort reports;
    private final Clock clock;

    /** @param activities the sales, looked up and checked for their archive, as one store */
    public <S extends ActivityLookupPort & ActivityArchivesPort> RepairApprovalService(
            S activities, ReconcilingPorts reconciling, Clock clock, ReconciliationSettings settings) {
        this.sales = new UnarchivedSales(activities, activities);
        this.skus = reconciling.skuReconciler(clock, settings);
        this.slices = reconciling;
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
        if (activity.slices().sliced()) {
            return approveInSlices(activity, item, operator);
        }
        // Read and reckoned afresh: the residual the operator saw may have changed, and only today's is repaired.
        ReconciliationReport report = skus.reconcileApproved(activity, item, operator)
                .orElseThrow(() -> new ActivityNotReadyException(activityId));
        if (report.action() != ReconciliationAction.DEFERRED) {
            reports.closeReviews(activityId, skuId, operator, clock.instant());
        }
        return report;
    }

    /**
     * The SKU in every slice, each repaired against its allotment in the operator's name (ADR 110); the reviews are
     * closed only when every slice was there and none was deferred. The answer is the first report that is not clean.
     */
    private ReconciliationReport approveInSlices(Activity activity, ActivityItem item, String operator) {
        SliceReconcilingPorts ports = slices.slicesFor(activity, "an approved repair");
        List<ReconciliationReport> all = new ArrayList<>();
        boolean everySliceDone = true;
        for (SaleSlice slice : activity.slices().of(activity.id())) {
            OneSlice part = new OneSlice(slice, ports);
            Optional<ReconciliationReport> report = skus.reconcileApproved(part, activity, item, operator);
            everySliceDone &= report.isPresent() && report.get().action() != ReconciliationAction.DEFERRED;
            report.ifPresent(all::add);
        }
        if (everySliceDone) {
            reports.closeReviews(activity.id(), item.skuId(), operator, clock.instant());
        }
        return all.stream().filter(report -> !report.isClean()).findFirst().or(() -> all.stream().findFirst())
                .orElseThrow(() -> new ActivityNotReadyException(activity.id()));
    }
}
