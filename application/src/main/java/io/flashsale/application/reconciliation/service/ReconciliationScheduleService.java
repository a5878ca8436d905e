package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.ReconciliationPass;
import io.flashsale.application.reconciliation.port.in.ScheduleReconciliationsUseCase;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.service.ActivityReconciler.SlicesReconciled;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SalePhase;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scheduled pass: every sale the hot store should hold (open, about to open within the warm-up lead, or ended
 * and not yet archived) is reconciled; an open sale the hot store lost is rebuilt first. One sale's failure does not
 * stop the others.
 */
public final class ReconciliationScheduleService implements ScheduleReconciliationsUseCase {

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final ActivityWindowsPort windows;
    private final HotStoreReconciliationPort hotStore;
    private final Optional<SliceReconcilingPorts> slices;
    private final ActivityReconciler reconciler;
    private final GatedRebuild rebuild;
    private final Clock clock;
    private final ReconciliationSettings settings;

    /** @param activities the sales, by id, by window and by archive, as one store */
    public <S extends ActivityLookupPort & ActivityArchivesPort & ActivityWindowsPort> ReconciliationScheduleService(
            S activities, ReconcilingPorts reconciling, RebuildPorts rebuilding, Clock clock,
            ReconciliationSettings settings) {
        this.activities = activities;
        this.archives = activities;
        this.windows = activities;
        this.hotStore = reconciling.hotStore();
        this.slices = reconciling.slices();
        this.reconciler = new ActivityReconciler(reconciling, clock, settings);
        this.rebuild = new GatedRebuild(rebuilding, clock);
        this.clock = clock;
        this.settings = settings;
    }

    @Override
    public ReconciliationPass reconcileLive() {
        Instant now = clock.instant();
        Map<ActivityId, Activity> due = new LinkedHashMap<>();
        windows.findUnarchivedOverlapping(now, now.plus(settings.lead()))
                .forEach(activity -> due.put(activity.id(), activity));
        for (ActivityId ended : archives.findEndedUnarchived(now)) {
            if (!due.containsKey(ended)) {
                activities.findById(ended).ifPresent(activity -> due.put(ended, activity));
            }
        }
        var reconciled = new ArrayList<ActivityId>();
        var rebuilt = new ArrayList<ActivityId>();
        var findings = new ArrayList<ReconciliationReport>();
        RuntimeException failure = null;
        for (Activity activity : due.values()) {
            try {
                if (activity.slices().sliced()) {
                    passOverSlices(activity, now, reconciled, rebuilt, findings);
                } else {
                    passOver(activity, now, reconciled, rebuilt, findings);
                }
            } catch (RuntimeException storeFailure) {
                if (failure == null) {
                    failure = storeFailure;
                } else {
                    failure.addSuppressed(storeFailure);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return new ReconciliationPass(reconciled, rebuilt, findings);
    }

    /**
     * Reconciles each slice the hot store holds against its allotment (ADR 110); while the sale is open, the slices it
     * lost are rebuilt, each alone, and reconciled in the next pass (ADR 111). A store without slices leaves the sale
     * alone.
     */
    private void passOverSlices(Activity activity, Instant now, List<ActivityId> reconciled,
                                List<ActivityId> rebuilt, List<ReconciliationReport> findings) {
        if (slices.isEmpty()) {
            return;
        }
        SlicesReconciled pass = reconciler.everySlice(activity, activity.items(), slices.get());
        if (pass.notLoaded().size() < activity.slices().count()) {
            reconciled.add(activity.id());
        }
        pass.reports().stream().filter(report -> !report.isClean()).forEach(findings::add);
        if (!pass.notLoaded().isEmpty() && activity.phaseAt(now) == SalePhase.OPEN && rebuild.rebuildsSlices()
                && rebuild.run(activity) == RebuildOutcome.REBUILT) {
            rebuilt.add(activity.id());
        }
    }

    /** Reconciles an activity the hot store holds; an open sale it lost is rebuilt first, anything else left alone. */
    private void passOver(Activity activity, Instant now, List<ActivityId> reconciled, List<ActivityId> rebuilt,
                          List<ReconciliationReport> findings) {
        Optional<HotStoreSnapshot> snapshot = hotStore.snapshot(activity.id());
        if (snapshot.isEmpty()) {
            if (activity.phaseAt(now) != SalePhase.OPEN || rebuild.run(activity) != RebuildOutcome.REBUILT) {
                return;
            }
            rebuilt.add(activity.id());
            snapshot = hotStore.snapshot(activity.id());
            if (snapshot.isEmpty()) {
                return;
            }
        } else {
            reconciled.add(activity.id());
        }
        reconciler.everySku(activity, snapshot).stream().filter(report -> !report.isClean()).forEach(findings::add);
    }
}
