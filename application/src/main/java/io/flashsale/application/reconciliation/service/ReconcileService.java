package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.reconciliation.model.ActivityReconciliation.HotStoreState;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileSkuUseCase;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.service.ActivityReconciler.SlicesReconciled;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SalePhase;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Reconciles a whole sale or one SKU on demand: an open sale the hot store lost is loaded from the database of record
 * again first, then each SKU is reconciled. The rules are the domain's
 * ({@link io.flashsale.domain.reconciliation.StockReconciliation}). A sale in slices is reconciled slice by slice, each
 * against its allotment (ADR 110); the slices the hot store lost are rebuilt first, each alone (ADR 111), and one SKU's
 * answer is the first of its slices' reports that is not clean, every one of them kept.
 */
public final class ReconcileService implements ReconcileActivityUseCase, ReconcileSkuUseCase {

    private final UnarchivedSales sales;
    private final HotStoreReconciliationPort hotStore;
    private final ActivityReconciler reconciler;
    private final GatedRebuild rebuild;
    private final ReconcilingPorts reconciling;
    private final Clock clock;

    /** @param activities the sales, looked up and checked for their archive, as one store */
    public <S extends ActivityLookupPort & ActivityArchivesPort> ReconcileService(
            S activities, ReconcilingPorts reconciling, RebuildPorts rebuilding, Clock clock,
            ReconciliationSettings settings) {
        this.sales = new UnarchivedSales(activities, activities);
        this.hotStore = reconciling.hotStore();
        this.reconciler = new ActivityReconciler(reconciling, clock, settings);
        this.rebuild = new GatedRebuild(rebuilding, clock);
        this.reconciling = reconciling;
        this.clock = clock;
    }

    @Override
    public ActivityReconciliation reconcile(ActivityId activityId) {
        Activity activity = sales.get(activityId);
        if (activity.slices().sliced()) {
            return reconcileSlices(activity);
        }
        Optional<HotStoreSnapshot> snapshot = hotStore.snapshot(activityId);
        HotStoreState state = HotStoreState.LOADED;
        if (snapshot.isEmpty()) {
            RebuildOutcome outcome = activity.phaseAt(clock.instant()) == SalePhase.OPEN ? rebuild.run(activity)
                    : RebuildOutcome.ENDED;
            boolean rebuiltNow = outcome == RebuildOutcome.REBUILT;
            // Read again either way: another instance may have loaded it meanwhile.
            snapshot = hotStore.snapshot(activityId);
            if (snapshot.isEmpty()) {
                return new ActivityReconciliation(activityId, outcome == RebuildOutcome.AWAITING_PIPELINE
                        ? HotStoreState.AWAITING_PIPELINE : HotStoreState.NOT_LOADED, List.of());
            }
            state = rebuiltNow ? HotStoreState.REBUILT : HotStoreState.LOADED;
        }
        return new ActivityReconciliation(activityId, state, reconciler.everySku(activity, snapshot));
    }

    /**
     * Each slice against its allotment; while the sale is open, the slices the hot store lost are rebuilt first (ADR
     * 111), and the pass is made again once they are, so the rebuilt slices are reconciled too.
     */
    private ActivityReconciliation reconcileSlices(Activity activity) {
        SliceReconcilingPorts slices = reconciling.slicesFor(activity, "reconciliation");
        SlicesReconciled reconciled = reconciler.everySlice(activity, activity.items(), slices);
        if (reconciled.notLoaded().isEmpty()) {
            return new ActivityReconciliation(activity.id(), HotStoreState.LOADED, reconciled.reports());
        }
        RebuildOutcome outcome = activity.phaseAt(clock.instant()) == SalePhase.OPEN && rebuild.rebuildsSlices()
                ? rebuild.run(activity) : RebuildOutcome.ENDED;
        if (outcome != RebuildOutcome.REBUILT) {
            return new ActivityReconciliation(activity.id(), outcome == RebuildOutcome.AWAITING_PIPELINE
                    ? HotStoreState.AWAITING_PIPELINE : HotStoreState.NOT_LOADED, reconciled.reports());
        }
        SlicesReconciled again = reconciler.everySlice(activity, activity.items(), slices);
        return new ActivityReconciliation(activity.id(), again.notLoaded().isEmpty() ? HotStoreState.REBUILT
                : HotStoreState.NOT_LOADED, again.reports());
    }

    @Override
    public ReconciliationReport reconcile(ActivityId activityId, SkuId skuId) {
        Activity activity = sales.get(activityId);
        ActivityItem item = activity.item(skuId).orElseThrow(() -> new SkuNotFoundException(activityId, skuId));
        if (activity.slices().sliced()) {
            return reconciler.everySlice(activity, List.of(item), reconciling.slicesFor(activity, "reconciliation"))
                    .telling().orElseThrow(() -> new ActivityNotReadyException(activityId));
        }
        Optional<HotStoreSnapshot> snapshot = hotStore.snapshot(activityId);
        if (snapshot.isEmpty() && activity.phaseAt(clock.instant()) == SalePhase.OPEN) {
            rebuild.run(activity);
            snapshot = hotStore.snapshot(activityId);
        }
        if (snapshot.isEmpty()) {
            throw new ActivityNotReadyException(activityId);
        }
        return reconciler.oneSku(activity, item, snapshot);
    }
}
