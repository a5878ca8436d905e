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
import io.flashsale.domain.slice.SaleSlice;

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
        return everySku(skus.whole(activity), activity, snapshot);
    }

    /** As {@link #everySku(Activity, Optional)}, of one part of the sale: a slice (ADR 110). */
    List<ReconciliationReport> everySku(ReconciledPart part, Activity activity, Optional<HotStoreSnapshot> snapshot) {
        List<ReconciliationReport> all = new ArrayList<>();
        Set<ReservationId> actedOn = new HashSet<>();
        Set<SkuId> underReview = underReview(activity.id());
        for (ActivityItem item : activity.items()) {
            skus.reconcile(part, activity, item, snapshot, Set.of(), actedOn).ifPresent(report -> {
                clearReview(underReview, report);
                all.add(report);
            });
        }
        return all;
    }

    /** @throws ActivityNotReadyException when the hot store does not hold the sale */
    ReconciliationReport oneSku(Activity activity, ActivityItem item, Optional<HotStoreSnapshot> snapshot) {
        return oneSku(skus.whole(activity), activity, item, snapshot);
    }

    /** As {@link #oneSku(Activity, ActivityItem, Optional)}, of one part of the sale. */
    ReconciliationReport oneSku(ReconciledPart part, Activity activity, ActivityItem item,
                                Optional<HotStoreSnapshot> snapshot) {
        Set<SkuId> underReview = underReview(activity.id());
        ReconciliationReport report = skus.reconcile(part, activity, item, snapshot, Set.of(), new HashSet<>())
                .orElseThrow(() -> new ActivityNotReadyException(activity.id()));
        clearReview(underReview, report);
        return report;
    }

    /**
     * Every slice of a sale in slices against its allotment (ADR 110), in slice order, each SKU of {@code items} in
     * item order. A SKU under review is cleared only when every slice was there and none of its slices' reports needs
     * review or was deferred: one clear slice says nothing of the others.
     */
    SlicesReconciled everySlice(Activity activity, List<ActivityItem> items, SliceReconcilingPorts ports) {
        List<ReconciliationReport> all = new ArrayList<>();
        List<Integer> notLoaded = new ArrayList<>();
        Set<ReservationId> actedOn = new HashSet<>();
        Set<SkuId> underReview = underReview(activity.id());
        for (SaleSlice slice : activity.slices().of(activity.id())) {
            OneSlice part = new OneSlice(slice, ports);
            Optional<HotStoreSnapshot> snapshot = part.snapshot();
            if (snapshot.isEmpty()) {
                notLoaded.add(slice.index());
                continue;
            }
            for (ActivityItem item : items) {
                skus.reconcile(part, activity, item, snapshot, Set.of(), actedOn).ifPresent(all::add);
            }
        }
        if (notLoaded.isEmpty()) {
            for (ActivityItem item : items) {
                List<ReconciliationReport> ofSku = all.stream()
                        .filter(report -> report.skuId().equals(item.skuId())).toList();
                if (!ofSku.isEmpty() && ofSku.stream().allMatch(ActivityReconciler::clears)) {
                    clearReview(underReview, ofSku.getFirst());
                }
            }
        }
        return new SlicesReconciled(all, notLoaded);
    }

    /**
     * What a reconciliation of a sale in slices came to.
     *
     * @param reports   one per slice and SKU, in slice order, then item order; none of a slice that was not there
     * @param notLoaded the slices the hot store did not hold
     */
    record SlicesReconciled(List<ReconciliationReport> reports, List<Integer> notLoaded) {

        /** The report an answer about one SKU gives: the first that is not clean, else the first. */
        Optional<ReconciliationReport> telling() {
            return reports.stream().filter(report -> !report.isClean()).findFirst()
                    .or(() -> reports.stream().findFirst());
        }
    }

    private static boolean clears(ReconciliationReport report) {
        return report.action() != ReconciliationAction.NEEDS_REVIEW && report.action() != ReconciliationAction.DEFERRED;
    }

    private Set<SkuId> underReview(ActivityId activityId) {
        return reports.awaitingReview(activityId).stream().map(ReconciliationReport::skuId)
                .collect(Collectors.toSet());
    }

    private void clearReview(Set<SkuId> underReview, ReconciliationReport report) {
        if (underReview.contains(report.skuId()) && clears(report)) {
            reports.closeReviews(report.activityId(), report.skuId(), CLEARED_BY, clock.instant());
        }
    }
}
