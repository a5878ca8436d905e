package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A judged run over a sale the hot store holds, its SKUs one by one ({@link SkuReconciler}), and the reviews it clears:
 * a SKU under review that the run finds within the limit (in sync, or repaired at once) needs nobody any more, so its
 * open reviews are closed in reconciliation's name (ADR 85), which also ends a review a run opened while an approved
 * repair was under way.
 */
final class ActivityReconciler {

    /** Who closes a review whose drift went away by itself (ADR 85). */
    static final String CLEARED_BY = "reconciliation";

    private final SkuReconciler skus;
    private final ReconciliationReportsPort reports;
    private final Clock clock;

    ActivityReconciler(ReconcilingPorts ports, Clock clock, ReconciliationSettings settings) {
        this.skus = ports.skuReconciler(clock, settings);
        this.reports = ports.reports();
        this.clock = clock;
    }

    /**
     * Every SKU in item order; the activity's one snapshot serves each SKU's first look, and a reservation of several
     * SKUs is re-driven or caught up once, by the first SKU that finds it.
     */
    List<ReconciliationReport> everySku(Activity activity, Optional<HotStoreSnapshot> snapshot) {
        List<ReconciliationReport> all = new ArrayList<>();
        Set<ReservationId> actedOn = new HashSet<>();
        Set<SkuId> underReview = underReview(activity.id());
        for (ActivityItem item : activity.items()) {
            skus.reconcile(activity, item, snapshot, Set.of(), actedOn).ifPresent(report -> {
                clearReview(underReview, report);
                all.add(report);
            });
        }
        return all;
    }

    /** @throws ActivityNotReadyException when the hot store does not hold the sale */
    ReconciliationReport oneSku(Activity activity, ActivityItem item, Optional<HotStoreSnapshot> snapshot) {
        Set<SkuId> underReview = underReview(activity.id());
        ReconciliationReport report = skus.reconcile(activity, item, snapshot, Set.of(), new HashSet<>())
                .orElseThrow(() -> new ActivityNotReadyException(activity.id()));
        clearReview(underReview, report);
        return report;
    }

    private Set<SkuId> underReview(ActivityId activityId) {
        return reports.awaitingReview(activityId).stream().map(ReconciliationReport::skuId)
                .collect(Collectors.toSet());
    }

    private void clearReview(Set<SkuId> underReview, ReconciliationReport report) {
        if (underReview.contains(report.skuId()) && report.action() != ReconciliationAction.NEEDS_REVIEW
                && report.action() != ReconciliationAction.DEFERRED) {
            reports.closeReviews(report.activityId(), report.skuId(), CLEARED_BY, clock.instant());
        }
    }
}
