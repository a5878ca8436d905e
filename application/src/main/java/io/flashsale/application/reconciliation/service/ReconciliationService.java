package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.ActivityReconciliation.HotStoreState;
import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.reconciliation.model.NoRepairAwaitingApprovalException;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.ReconciliationPass;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.port.in.ApproveRepairUseCase;
import io.flashsale.application.reconciliation.port.in.ListReconciliationReportsUseCase;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileSkuUseCase;
import io.flashsale.application.reconciliation.port.in.ScheduleReconciliationsUseCase;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SalePhase;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Keeps the hot store honest with the database of record: reconciles a whole activity or one SKU on demand, every
 * sale the hot store should hold on a schedule, and loads an open sale the hot store lost from the database again
 * before it sells another unit. The rules are the domain's ({@link io.flashsale.domain.reconciliation.StockReconciliation}).
 */
public class ReconciliationService implements ReconcileActivityUseCase, ReconcileSkuUseCase, RebuildLedgerUseCase,
        ScheduleReconciliationsUseCase, ListReconciliationReportsUseCase, ApproveRepairUseCase {

    static final int MAX_REPORTS = 1000;
    /** Who closes a review whose drift went away by itself (ADR 85). */
    static final String CLEARED_BY = "reconciliation";
    static final int MAX_OPERATOR = 100;

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final ActivityWindowsPort windows;
    private final HotStoreReconciliationPort hotStore;
    private final ReconciliationReportsPort reports;
    private final Clock clock;
    private final ReconciliationSettings settings;
    private final SkuReconciler skus;
    private final LedgerRebuild rebuilds;
    private final PipelineGate gate;

    /**
     * What reconciliation reads, repairs and reports to. A hot store's roles come one port each, the optional ones
     * as their null objects when the store has none: {@link RelayedEventsPort#NONE} judges a reservation's event by
     * its age and re-drives it through the hot store, {@link RecoveryMarkPort#NONE} lets a rebuild wait for nothing in
     * the pipeline, {@link PipelinePositionPort#NONE} sees no broker.
     *
     * @param relayed       the hot store's outbox and the broker positions it recorded (ADR 29)
     * @param recoveryMarks where a lost sale's rebuild keeps the broker's end it waits for (ADR 30)
     * @param pipeline      where the order consumer stands in the broker
     */
    public record Ports(ActivityLookupPort activities, ActivityArchivesPort archives, ActivityWindowsPort windows,
                        StockReservationPort stock, HotStoreReconciliationPort hotStore,
                        HotStoreSettlementPort settlement, RelayedEventsPort relayed, RecoveryMarkPort recoveryMarks,
                        PipelinePositionPort pipeline, RecordedStockPort recorded, RecordedOrdersPort recordedOrders,
                        OrderTransitionsPort transitions, ReconciliationReportsPort reports,
                        ReconciliationMetricsPort metrics) {

        public Ports {
            Objects.requireNonNull(relayed, "relayed");
            Objects.requireNonNull(recoveryMarks, "recoveryMarks");
            Objects.requireNonNull(pipeline, "pipeline");
        }
    }

    /** Rebuilds run in steps of {@link LedgerRebuild#PAGE} orders. */
    public ReconciliationService(Ports ports, Clock clock, ReconciliationSettings settings) {
        this.activities = ports.activities();
        this.archives = ports.archives();
        this.windows = ports.windows();
        this.hotStore = ports.hotStore();
        this.reports = ports.reports();
        this.clock = clock;
        this.settings = settings;
        this.skus = new SkuReconciler(hotStore, ports.stock(), ports.recorded(), ports.recordedOrders(),
                ports.transitions(), reports, ports.metrics(), clock, settings, ports.relayed(), ports.pipeline());
        this.rebuilds = new LedgerRebuild(hotStore, ports.settlement(), ports.recorded(), ports.recordedOrders(),
                ports.metrics(), clock, LedgerRebuild.PAGE);
        this.gate = new PipelineGate(ports.relayed(), ports.pipeline(), ports.recoveryMarks());
    }

    @Override
    public ActivityReconciliation reconcile(ActivityId activityId) {
        Activity activity = unarchived(activityId);
        Optional<HotStoreSnapshot> snapshot = hotStore.snapshot(activityId);
        HotStoreState state = HotStoreState.LOADED;
        if (snapshot.isEmpty()) {
            RebuildOutcome outcome = activity.phaseAt(clock.instant()) == SalePhase.OPEN ? rebuildNow(activity)
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
        return new ActivityReconciliation(activityId, state, reconcileAll(activity, snapshot));
    }

    /**
     * Every SKU in item order; the activity's one snapshot serves each SKU's first look, and a reservation of several
     * SKUs is re-driven or caught up once, by the first SKU that finds it.
     */
    private List<ReconciliationReport> reconcileAll(Activity activity, Optional<HotStoreSnapshot> snapshot) {
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

    private Set<SkuId> underReview(ActivityId activityId) {
        return reports.awaitingReview(activityId).stream().map(ReconciliationReport::skuId)
                .collect(Collectors.toSet());
    }

    /**
     * A SKU under review that a judged run finds within the limit (in sync, or repaired at once) needs nobody any
     * more: its open reviews are closed in reconciliation's name, which also ends a review a run opened while an
     * approved repair was under way.
     */
    private void clearReview(Set<SkuId> underReview, ReconciliationReport report) {
        if (underReview.contains(report.skuId()) && report.action() != ReconciliationAction.NEEDS_REVIEW
                && report.action() != ReconciliationAction.DEFERRED) {
            reports.closeReviews(report.activityId(), report.skuId(), CLEARED_BY, clock.instant());
        }
    }

    @Override
    public ReconciliationReport reconcile(ActivityId activityId, SkuId skuId) {
        Activity activity = unarchived(activityId);
        ActivityItem item = activity.item(skuId).orElseThrow(() -> new SkuNotFoundException(activityId, skuId));
        Optional<HotStoreSnapshot> snapshot = hotStore.snapshot(activityId);
        if (snapshot.isEmpty() && activity.phaseAt(clock.instant()) == SalePhase.OPEN) {
            rebuildNow(activity);
            snapshot = hotStore.snapshot(activityId);
        }
        if (snapshot.isEmpty()) {
            throw new ActivityNotReadyException(activityId);
        }
        Set<SkuId> underReview = underReview(activityId);
        ReconciliationReport report = skus.reconcile(activity, item, snapshot, Set.of(), new HashSet<>())
                .orElseThrow(() -> new ActivityNotReadyException(activityId));
        clearReview(underReview, report);
        return report;
    }

    @Override
    public ReconciliationReport approveRepair(ActivityId activityId, SkuId skuId, String operator) {
        if (operator == null || operator.isBlank() || operator.length() > MAX_OPERATOR) {
            throw new IllegalArgumentException("operator must be 1 to " + MAX_OPERATOR + " characters, was " + operator);
        }
        Activity activity = unarchived(activityId);
        ActivityItem item = activity.item(skuId).orElseThrow(() -> new SkuNotFoundException(activityId, skuId));
        if (!underReview(activityId).contains(skuId)) {
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

    @Override
    public RebuildOutcome rebuild(ActivityId activityId) {
        Activity activity = unarchived(activityId);
        if (activity.phaseAt(clock.instant()) == SalePhase.ENDED) {
            return RebuildOutcome.ENDED;
        }
        return rebuildNow(activity);
    }

    /**
     * Loads the activity from the database of record unless the hot store holds it; ready comes last. Not before
     * what was in flight when the loss was found has landed in the database ({@link PipelineGate}).
     */
    private RebuildOutcome rebuildNow(Activity activity) {
        if (!gate.landed(activity.id())) {
            return RebuildOutcome.AWAITING_PIPELINE;
        }
        RebuildOutcome outcome = rebuilds.run(activity);
        if (outcome == RebuildOutcome.REBUILT) {
            gate.rebuilt(activity.id());
        }
        return outcome;
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
                passOver(activity, now, reconciled, rebuilt, findings);
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

    /** Reconciles an activity the hot store holds; an open sale it lost is rebuilt first, anything else left alone. */
    private void passOver(Activity activity, Instant now, List<ActivityId> reconciled, List<ActivityId> rebuilt,
                          List<ReconciliationReport> findings) {
        Optional<HotStoreSnapshot> snapshot = hotStore.snapshot(activity.id());
        if (snapshot.isEmpty()) {
            if (activity.phaseAt(now) != SalePhase.OPEN || rebuildNow(activity) != RebuildOutcome.REBUILT) {
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
        reconcileAll(activity, snapshot).stream().filter(report -> !report.isClean()).forEach(findings::add);
    }

    @Override
    public List<ReconciliationReport> recent(ActivityId activityId, int max) {
        if (max < 1 || max > MAX_REPORTS) {
            throw new IllegalArgumentException("max must be between 1 and " + MAX_REPORTS + ", was " + max);
        }
        if (activities.findById(activityId).isEmpty()) {
            throw new ActivityNotFoundException(activityId);
        }
        return reports.findRecent(activityId, max);
    }

    @Override
    public List<ReconciliationReport> awaitingReview(ActivityId activityId) {
        if (activities.findById(activityId).isEmpty()) {
            throw new ActivityNotFoundException(activityId);
        }
        return reports.awaitingReview(activityId);
    }

    private Activity unarchived(ActivityId activityId) {
        Activity activity = activities.findById(activityId)
                .orElseThrow(() -> new ActivityNotFoundException(activityId));
        if (archives.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        return activity;
    }
}
