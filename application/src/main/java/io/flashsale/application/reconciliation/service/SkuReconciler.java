package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reconciliation.RecordedOrder;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reconciliation.ReservationSettlement;
import io.flashsale.domain.reconciliation.SkuReckoning;
import io.flashsale.domain.reconciliation.StockReconciliation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reconciles one SKU: read the hot store, then the database of record, reckon, and act. Reservations the hot store
 * never heard the end of are caught up first (as the order pipeline would have), lost events re-driven; then drifted
 * figures are repaired in one guarded write. A SKU that moves under the repair is read again, a few times, and the
 * repair deferred to the next run if it never holds still.
 */
final class SkuReconciler {

    private final HotStoreReconciliationPort hotStore;
    private final ReservationTransitionsPort reservations;
    private final RecordedStockPort recorded;
    private final RecordedOrdersPort orders;
    private final OrderTransitionsPort transitions;
    private final ReconciliationReportsPort reports;
    private final ReconciliationMetricsPort metrics;
    private final Clock clock;
    private final ReconciliationSettings settings;
    private final RelayedEventsPort relayed;
    private final PipelinePositionPort pipeline;
    private final PipelinePlaces places;

    /**
     * @param relayed  the hot store's view of its outbox and the broker positions; {@link RelayedEventsPort#NONE}
     *                 judges a reservation's event by age (the in-memory reference)
     * @param pipeline where the order consumer stands in the broker
     */
    SkuReconciler(HotStoreReconciliationPort hotStore, ReservationTransitionsPort reservations,
                  RecordedStockPort recorded,
                  RecordedOrdersPort orders, OrderTransitionsPort transitions, ReconciliationReportsPort reports, ReconciliationMetricsPort metrics,
                  Clock clock, ReconciliationSettings settings, RelayedEventsPort relayed, PipelinePositionPort pipeline) {
        this.relayed = relayed;
        this.pipeline = pipeline;
        this.places = new PipelinePlaces(relayed, pipeline);
        this.hotStore = hotStore;
        this.reservations = reservations;
        this.recorded = recorded;
        this.orders = orders;
        this.transitions = transitions;
        this.reports = reports;
        this.metrics = metrics;
        this.clock = clock;
        this.settings = settings;
    }

    /**
     * @param first             a snapshot of the activity to start from; read afresh when empty or for a second look
     * @param landedAdjustments adjustments the hot store refused, which therefore count as the truth at once
     * @param actedOn           reservations already re-driven or caught up in this run (of another SKU); added to
     * @return the report, kept when it is not clean; empty when the hot store does not hold the activity
     */
    Optional<ReconciliationReport> reconcile(Activity activity, ActivityItem item, Optional<HotStoreSnapshot> first,
                                             Set<Long> landedAdjustments, Set<ReservationId> actedOn) {
        return reconcile(whole(activity), activity, item, first, landedAdjustments, actedOn);
    }

    /** As {@link #reconcile(Activity, ActivityItem, Optional, Set, Set)}, of one part of the sale: a slice (ADR 110). */
    Optional<ReconciliationReport> reconcile(ReconciledPart part, Activity activity, ActivityItem item,
                                             Optional<HotStoreSnapshot> first, Set<Long> landedAdjustments,
                                             Set<ReservationId> actedOn) {
        return reconcile(new Run(part, activity, item, clock.instant(), actedOn, null), first, landedAdjustments);
    }

    /** The sale of one slice, whole. */
    ReconciledPart whole(Activity activity) {
        return new WholeSale(activity.id(), hotStore, recorded);
    }

    /**
     * Reconciles the SKU with its repair approved by {@code operator}: whatever the residual found now (read afresh,
     * never the one the operator saw), it is repaired from the database of record. The report is kept even when
     * nothing was left to repair, naming the operator.
     */
    Optional<ReconciliationReport> reconcileApproved(Activity activity, ActivityItem item, String operator) {
        return reconcileApproved(whole(activity), activity, item, operator);
    }

    /** As {@link #reconcileApproved(Activity, ActivityItem, String)}, of one part of the sale. */
    Optional<ReconciliationReport> reconcileApproved(ReconciledPart part, Activity activity, ActivityItem item,
                                                     String operator) {
        return reconcile(new Run(part, activity, item, clock.instant(), new HashSet<>(), operator), Optional.empty(),
                Set.of());
    }

    private Optional<ReconciliationReport> reconcile(Run run, Optional<HotStoreSnapshot> first,
                                                     Set<Long> landedAdjustments) {
        Activity activity = run.activity;
        ActivityItem item = run.item;
        Optional<HotStoreSnapshot> snapshot = first.isPresent() ? first : run.part.snapshot();
        for (int attempt = 1; attempt <= settings.attempts(); attempt++) {
            if (attempt > 1) {
                snapshot = run.part.snapshot();
            }
            if (snapshot.isEmpty()) {
                return run.lastReckoning == null ? Optional.empty()
                        : Optional.of(run.finish(ReconciliationAction.DEFERRED, run.lastReckoning.actual(),
                        "the hot store no longer holds the activity"));
            }
            // A move that landed between the two stores' reads looks like drift once; real drift is still there on
            // a second, fresh look, and only that one is repaired, from the second look.
            Optional<HotStoreSnapshot> sight = snapshot;
            Look look = null;
            Judgement judgement = Judgement.DRIFT;
            for (int sighting = 1; sighting <= 2 && judgement == Judgement.DRIFT; sighting++) {
                if (sighting == 2) {
                    sight = run.part.snapshot();
                    if (sight.isEmpty()) {
                        return Optional.of(run.finish(ReconciliationAction.DEFERRED, look.reckoning().actual(),
                                "the hot store no longer holds the activity"));
                    }
                }
                look = look(activity, item.skuId(), sight.get(), landedAdjustments, run);
                judgement = judge(run, look);
            }
            if (judgement == Judgement.LOOK_AGAIN) {
                continue;
            }
            if (judgement == Judgement.BUSY) {
                break;
            }
            SkuReckoning reckoning = look.reckoning();
            if (judgement == Judgement.CLEAN) {
                return Optional.of(run.finish(run.actionSoFar(), reckoning.actual(), ""));
            }
            if (escalates(run, reckoning, landedAdjustments)) {
                run.decidedBy(reckoning);
                return Optional.of(run.finish(ReconciliationAction.NEEDS_REVIEW, reckoning.actual(),
                        "residual of " + reckoning.driftUnits() + " units is above the automatic repair's limit of "
                                + settings.autoRepairLimit() + ": left as found until an operator approves the repair"));
            }
            LedgerRepairResult result = run.part.repair(reckoning.repair(item, activity.limitFor(item)));
            switch (result) {
                case REPAIRED -> {
                    forgetSettled(activity.id(), look, run.runAt, activity.paymentTimeout());
                    run.decidedBy(reckoning);
                    run.released.addAll(reckoning.reservations(ReservationSettlement.FAILED_HELD));
                    boolean aboveLimit = aboveLimit(run, reckoning, landedAdjustments);
                    String why = joined(aboveLimit ? repairedAboveLimit(reckoning) : "",
                            reckoning.shortfall() > 0 ? "short by " + reckoning.shortfall()
                            + ": reservations in flight exceed what the database has left, nothing available" : "");
                    ReconciliationReport report = run.finish(ReconciliationAction.REPAIRED, reckoning.targetSettled(),
                            why);
                    metrics.repaired(report);
                    if (aboveLimit) {
                        metrics.repairedAboveLimit(report);
                    }
                    return Optional.of(report);
                }
                case RETRY -> {
                    // Accepted, confirmed or given back since the snapshot: the reckoning is stale.
                }
                case NOT_LOADED -> {
                    return Optional.of(run.finish(ReconciliationAction.DEFERRED, reckoning.actual(),
                            "the hot store no longer holds the activity"));
                }
            }
        }
        SkuReckoning last = run.lastReckoning;
        if (run.moving && !run.judged) {
            return Optional.of(run.finishUnjudged("the SKU moved during every read (a busy sale); judged on a later,"
                    + " quieter run"));
        }
        return Optional.of(run.finish(last.needsRepair() ? ReconciliationAction.DEFERRED : run.actionSoFar(),
                last.actual(), last.needsRepair() ? "the SKU kept moving under " + settings.attempts()
                        + " attempts; repaired on a later run" : ""));
    }

    /** What one look of the SKU comes to. */
    private enum Judgement {
        /** Something was caught up, or the SKU moved while it was read: look again before judging the figures. */
        LOOK_AGAIN,
        /** The stores agree: what the look found settled is forgotten. */
        CLEAN,
        /** The stores disagree on a steady look. */
        DRIFT,
        /**
         * The SKU moved while it was read and reservations are on their way through the pipeline: the sale is busy, and
         * a look at once would move too (ADR 118). Judged on a later pass.
         */
        BUSY
    }

    /** Judges one look; the run keeps its reckoning as the last one. */
    private Judgement judge(Run run, Look look) {
        SkuReckoning reckoning = look.reckoning();
        run.lastReckoning = reckoning;
        if (run.catchUp(look)) {
            // The hot store's ledger moved: look again before judging the figures.
            return Judgement.LOOK_AGAIN;
        }
        if (!look.steady() && reckoning.needsRepair()) {
            // Read in pages while the SKU moved: its parts need not agree, so a difference is not judged on this
            // look. A moving look that shows no difference is taken as one: the next pass looks again anyway.
            run.moving = true;
            return look.busy() ? Judgement.BUSY : Judgement.LOOK_AGAIN;
        }
        run.judged = true;
        if (!reckoning.needsRepair()) {
            forgetSettled(run.activity.id(), look, run.runAt, run.activity.paymentTimeout());
            return Judgement.CLEAN;
        }
        return Judgement.DRIFT;
    }

    /**
     * Drift above the limit waits for an operator (ADR 85) when its repair would loosen what the hot store offers by
     * more than the limit too (ADR 99): a repair that only restricts it, or loosens it within the limit, is applied
     * whole. Never when an operator approved this run, or the run follows an audited stock adjustment the hot store
     * refused: that adjustment is the operator's decision already.
     */
    private boolean escalates(Run run, SkuReckoning reckoning, Set<Long> landedAdjustments) {
        return aboveLimit(run, reckoning, landedAdjustments) && reckoning.loosenedUnits() > settings.autoRepairLimit();
    }

    /** Drift above the limit in a run the limit applies to. */
    private boolean aboveLimit(Run run, SkuReckoning reckoning, Set<Long> landedAdjustments) {
        return run.approvedBy == null && landedAdjustments.isEmpty()
                && reckoning.driftUnits() > settings.autoRepairLimit();
    }

    /** Why a repair above the limit was not held back (ADR 99). */
    private String repairedAboveLimit(SkuReckoning reckoning) {
        String how = reckoning.loosenedUnits() == 0 ? "only restricts what the hot store offers"
                : "loosens what the hot store offers by " + reckoning.loosenedUnits() + " units at most, within the limit";
        return "residual of " + reckoning.driftUnits() + " units is above the automatic repair's limit of "
                + settings.autoRepairLimit() + ", repaired at once: the repair " + how + " (ADR 99)";
    }

    /** The non-empty reasons, joined. */
    private static String joined(String first, String second) {
        return first.isEmpty() || second.isEmpty() ? first + second : first + "; " + second;
    }

    /**
     * Both stores' sides of the SKU, the database's read after the hot store's, and what they come to; not steady when
     * the SKU moved while the hot store was read.
     */
    private record Look(HotSkuSnapshot hot, RecordedSku recorded, SkuReckoning reckoning, boolean steady,
                        PipelinePlaces.Placed placed, boolean busy) {
    }

    /**
     * Reads the hot store, then the database, and reckons. The holdings are compared by their sum, and a slice of them
     * (the rolling audit) buyer by buyer, so the database is asked for the sum of purchases and the slice's buyers only;
     * every holding and every purchase are read only when the sum or the slice of a steady look disagrees.
     *
     * @param run once one of its looks read the holdings, every later look reads them too: the drift may be there
     */
    private Look look(Activity activity, SkuId skuId, HotStoreSnapshot snapshot, Set<Long> landedAdjustments,
                      Run run) {
        ActivityId activityId = activity.id();
        HotSkuSnapshot hot = snapshot.sku(skuId).orElseThrow(() -> new IllegalStateException(
                "the hot store's snapshot of " + activityId + " lacks SKU " + skuId));
        Instant now = clock.instant();
        // Where the pipeline holds each RESERVED reservation, read before the database so that an event the consumer
        // read past has its order (or its dead letter) there already.
        PipelinePlaces.Placed placed = places.place(activityId, hot, now, settings.grace());
        hot = placed.hot();
        // A look read while the SKU moved is not judged (ADR 12), so nothing it shows is worth a read per buyer.
        if (run.readHoldings && hot.steady()) {
            hot = readHoldings(run.part, hot);
        }
        // The audit's slice is read with the rest of the hot store, before the database, so that the purchases of its
        // buyers come from the same consistent read as the orders.
        Optional<HoldingsSlice> slice = audit(run.part, hot);
        PurchaseScope purchases = hot.holdingsRead() ? PurchaseScope.EVERY
                : PurchaseScope.of(slice.map(read -> read.holdings().keySet()).orElse(Set.of()));
        RecordedSku figures = recorded(run.part, activity, hot, now, purchases);
        hot = withOwedRestores(activityId, hot, figures);
        SkuReckoning reckoning = StockReconciliation.reckon(hot, figures, now, settings.grace(), landedAdjustments);
        if (hot.steady() && (reckoning.holdingsToRead() || auditFindsDrift(hot, figures, now, slice))) {
            // The sum of holdings disagrees, or some buyers' holdings do: only now are the SKU's holdings read, in
            // pages, under the look's version, and every buyer's purchases after them.
            run.readHoldings = true;
            hot = readHoldings(run.part, hot);
            figures = recorded(run.part, activity, hot, now, PurchaseScope.EVERY);
            hot = withOwedRestores(activityId, hot, figures);
            reckoning = StockReconciliation.reckon(hot, figures, now, settings.grace(), landedAdjustments);
        }
        // A slice whose transfers moved between the two stores' reads is not judged either (ADR 110).
        boolean busy = !hot.steady() && hot.reservations().stream().anyMatch(held -> onItsWay(held, now));
        return new Look(hot, figures, reckoning, hot.steady() && run.part.heldStill(skuId), placed, busy);
    }

    private HotSkuSnapshot readHoldings(ReconciledPart part, HotSkuSnapshot hot) {
        HotSkuSnapshot read = part.withHoldings(hot);
        if (!read.holdingsRead()) {
            throw new IllegalStateException("the hot store did not read the holdings of " + hot.skuId());
        }
        return read;
    }

    private RecordedSku recorded(ReconciledPart part, Activity activity, HotSkuSnapshot hot, Instant now,
                                 PurchaseScope purchases) {
        return part.recorded(hot.skuId(), askAbout(hot, now, activity.paymentTimeout()), purchases)
                .orElseThrow(() -> new SkuNotFoundException(activity.id(), hot.skuId()));
    }

    /**
     * The rolling audit (ADR 59): a steady look that left the holdings out reads a few pages of them, continuing where
     * the last one stopped; empty when there is nothing to audit or the SKU moved meanwhile.
     */
    private Optional<HoldingsSlice> audit(ReconciledPart part, HotSkuSnapshot hot) {
        if (settings.auditPages() == 0 || hot.holdingsRead() || !hot.steady()) {
            return Optional.empty();
        }
        return part.auditHoldings(hot, settings.auditPages()).filter(HoldingsSlice::steady);
    }

    /**
     * A buyer of the slice who holds more or fewer units than the database says is drift that kept the sum, and sends
     * the look to read every holding. A look that read every holding has no slice ({@link #audit}).
     */
    private boolean auditFindsDrift(HotSkuSnapshot hot, RecordedSku figures, Instant now,
                                    Optional<HoldingsSlice> slice) {
        return slice.map(read -> !StockReconciliation.auditSlice(hot, figures, now, settings.grace(), read.holdings())
                        .isEmpty())
                .orElse(false);
    }

    /**
     * What a judged look found settled in the database and the hot store may stop counting as in flight: a buyer's
     * cancel the database recorded (or too old to matter, see {@link #askAbout}), a FAILED reservation once the figures
     * agree or were repaired (its units are back), and anything no longer in a status that waits for the database.
     */
    private void forgetSettled(ActivityId activityId, Look look, Instant now, Duration paymentTimeout) {
        Instant lately = now.minus(settings.grace()).minus(paymentTimeout);
        Map<ReservationId, ReservationStatus> settled = new HashMap<>();
        for (HotReservation held : look.hot().reservations()) {
            RecordedOrder order = look.recorded().orders().get(held.id());
            boolean done = switch (held.status()) {
                case RESERVED, ORDERED -> false;
                case FAILED -> true;
                // Settled once its order left ORDERED: closed (the cancel landed) or paid (the payment stands).
                case CANCELLED -> held.cancelledAt() == null || held.cancelledAt().isBefore(lately)
                        || (order != null && !order.canFollowACancel());
                case PAID, EXPIRED -> true;
            };
            if (done) {
                settled.put(held.id(), held.status());
            }
        }
        if (!settled.isEmpty()) {
            hotStore.settled(activityId, settled);
        }
    }

    /**
     * An ORDERED reservation keeps no record in the hot store (ADR 71); only those that owe a restore count, so the
     * hot store is asked, with their orders, which still hold their units. Read after the snapshot, they are guarded by
     * its version as the rest is.
     */
    private HotSkuSnapshot withOwedRestores(ActivityId activityId, HotSkuSnapshot hot, RecordedSku figures) {
        Set<ReservationId> seen = new HashSet<>();
        hot.reservations().forEach(held -> seen.add(held.id()));
        List<ReservationId> missing = figures.restoresOwed().stream().filter(id -> !seen.contains(id)).toList();
        if (missing.isEmpty()) {
            return hot;
        }
        List<Order> owing = orders.orders(missing).stream()
                .filter(order -> order.status().restoresOrderedUnits()).toList();
        Map<ReservationId, ReservationStatus> held = hotStore.restoreStatuses(activityId,
                owing.stream().map(PendingRestore::of).toList());
        List<HotReservation> ordered = new ArrayList<>();
        for (Order order : owing) {
            long units = order.lines().stream().filter(line -> line.skuId().equals(hot.skuId()))
                    .mapToLong(ReservationLine::quantity).sum();
            if (units > 0 && held.get(order.id()) == ReservationStatus.ORDERED) {
                ordered.add(new HotReservation(order.id(), order.buyerId(), ReservationStatus.ORDERED, units,
                        order.reservedAt(), null, false));
            }
        }
        return hot.withReservations(ordered);
    }

    /**
     * The reservations whose orders decide how they count: RESERVED ones, and ones the buyer cancelled lately. Lately
     * spans the grace period and the payment timeout: a buyer's cancel that won in the hot store while its order
     * committed (ADR 32) leaves that order ORDERED at most until it expires, which then settles both stores anyway.
     * <p>
     * A look read while the SKU moved is only caught up, never repaired (ADR 12), and catching up acts on reservations
     * out of the pipeline or overdue. So such a look leaves out the ones {@linkplain #onItsWay on their way} (ADR 118):
     * whether their orders landed changes nothing it does, and in a busy sale they are nearly all of its reservations,
     * which every look asked the database about, in statements of 500 ids.
     */
    private List<ReservationId> askAbout(HotSkuSnapshot hot, Instant now, Duration paymentTimeout) {
        Instant lately = now.minus(settings.grace()).minus(paymentTimeout);
        boolean moving = !hot.steady();
        return hot.reservations().stream()
                .filter(held -> held.status() == ReservationStatus.RESERVED
                        ? !(moving && onItsWay(held, now))
                        : held.status() == ReservationStatus.CANCELLED && held.cancelledAt() != null
                        && !held.cancelledAt().isBefore(lately))
                .map(HotReservation::id)
                .toList();
    }

    /** RESERVED, younger than the grace and placed in the pipeline: its order, landed or not, is not yet overdue. */
    private boolean onItsWay(HotReservation held, Instant now) {
        return held.status() == ReservationStatus.RESERVED && held.inPipeline()
                && !held.reservedAt().isBefore(now.minus(settings.grace()));
    }

    /** What one reconciliation of one SKU has found and done so far. */
    private final class Run {

        private final ReconciledPart part;
        private final Activity activity;
        private final ActivityItem item;
        private final Instant runAt;
        private final Set<ReservationId> actedOn;
        /** The operator who approved this run's repair; null for a run of its own. */
        private final String approvedBy;
        private final List<ReservationId> redriven = new ArrayList<>();
        private final List<ReservationId> confirmed = new ArrayList<>();
        private final List<ReservationId> released = new ArrayList<>();
        private final Set<ReservationId> deadLettered = new HashSet<>();
        private SkuReckoning decisive;
        private SkuReckoning lastReckoning;
        private boolean moving;
        private boolean judged;
        private boolean readHoldings;

        Run(ReconciledPart part, Activity activity, ActivityItem item, Instant runAt, Set<ReservationId> actedOn,
            String approvedBy) {
            this.part = part;
            this.activity = activity;
            this.item = item;
            this.runAt = runAt;
            this.actedOn = actedOn;
            this.approvedBy = approvedBy;
        }

        /** The reason, led by the part's name and the approving operator's name on an approved run. */
        private String withApproval(String why) {
            if (approvedBy == null) {
                return part.named(why);
            }
            return part.named("repair approved by " + approvedBy + (why == null || why.isEmpty() ? "" : "; " + why));
        }

        /** Every report of an approved run is kept: it is the approval's audit, even when nothing was left to do. */
        private void keep(ReconciliationReport report) {
            if (!report.isClean() || approvedBy != null) {
                reports.save(report);
            }
        }

        void decidedBy(SkuReckoning reckoning) {
            if (decisive == null) {
                decisive = reckoning;
            }
        }

        /** Re-drives lost events and tells the hot store what the database settled long ago; true when it moved. */
        boolean catchUp(Look look) {
            SkuReckoning reckoning = look.reckoning();
            List<ReservationId> lost = reckoning.reservations(ReservationSettlement.UNKNOWN);
            // Dead letters wait for an operator's replay: never re-driven automatically.
            Set<ReservationId> waitingForOperator = lost.isEmpty() ? Set.of() : pipeline.deadLettered(lost);
            deadLettered.addAll(waitingForOperator);
            for (ReservationId id : lost) {
                if (!waitingForOperator.contains(id) && actedOn.add(id) && redrive(id, look)) {
                    decidedBy(reckoning);
                    redriven.add(id);
                    metrics.redriven(activity.id());
                }
            }
            boolean moved = false;
            for (ReservationId id : reckoning.reservations(ReservationSettlement.SETTLED_OVERDUE)) {
                if (actedOn.add(id)) {
                    decidedBy(reckoning);
                    if (tellHotStore(look.recorded().orders().get(id))) {
                        confirmed.add(id);
                    }
                    moved = true;
                }
            }
            // A set, worked out once: the look holds every reservation in flight, which a lagging pipeline makes many.
            Set<ReservationId> cancelOverdue = Set.copyOf(reckoning.reservations(ReservationSettlement.CANCEL_OVERDUE));
            List<HotReservation> inFlight = cancelOverdue.isEmpty() ? List.of() : look.hot().reservations();
            for (HotReservation held : inFlight) {
                if (cancelOverdue.contains(held.id()) && actedOn.add(held.id())) {
                    decidedBy(reckoning);
                    // The buyer's cancel won in the hot store; the database follows it, giving the units back once.
                    if (transitions.cancelReleased(held.id(), held.cancelledAt())) {
                        confirmed.add(held.id());
                    }
                    moved = true;
                }
            }
            return moved;
        }

        /** Once per window, and only while the reservation is where this look saw it (the script checks, atomically). */
        private boolean redrive(ReservationId id, Look look) {
            if (relayed == RelayedEventsPort.NONE) {
                return hotStore.redrive(id);
            }
            return relayed.redrive(id, look.placed().seenAt(id), settings.redriveWindow());
        }

        /** What the order pipeline does when a delivery finds the reservation settled already. */
        private boolean tellHotStore(RecordedOrder order) {
            ReservationId id = order.id();
            return switch (order.status()) {
                case ORDERED -> reservations.confirm(id);
                case PAID -> {
                    boolean confirmedNow = reservations.confirm(id);
                    yield reservations.markPaid(id) || confirmedNow;
                }
                case FAILED -> reservations.fail(id);
                // Closed after it was ordered: confirmed here, the restore sweep then gives its units back.
                case CANCELLED, EXPIRED -> order.wasOrdered() ? reservations.confirm(id) : reservations.release(id);
                case RESERVED -> throw new IllegalStateException("order " + id + " is RESERVED, which no order can be");
            };
        }

        ReconciliationAction actionSoFar() {
            if (!confirmed.isEmpty()) {
                return ReconciliationAction.CONFIRMED;
            }
            return redriven.isEmpty() ? ReconciliationAction.NONE : ReconciliationAction.REDRIVEN;
        }

        /** A report that judges nothing: no look held still, so neither figures nor a finding can be trusted. */
        ReconciliationReport finishUnjudged(String why) {
            String detail = ReconciliationReport.describe(ReconciliationClassification.NONE,
                    ReconciliationAction.DEFERRED, LedgerFigures.ZERO, List.of(), redriven, confirmed, released,
                    withApproval(why));
            ReconciliationReport report = new ReconciliationReport(activity.id(), item.skuId(), runAt,
                    ReconciliationClassification.NONE, ReconciliationAction.DEFERRED, lastReckoning.actual(),
                    lastReckoning.actual(), lastReckoning.actual(), List.of(), redriven, confirmed, released, detail);
            metrics.reported(report);
            reports.save(report);
            return report;
        }

        ReconciliationReport finish(ReconciliationAction action, LedgerFigures after, String reason) {
            String why = deadLettered.isEmpty() ? reason : (reason.isEmpty() ? "" : reason + "; ")
                    + deadLettered.size() + " reservation(s) in the dead-letter topic, waiting for an operator's"
                    + " replay: " + deadLettered.stream().map(ReservationId::value).sorted().toList();
            SkuReckoning found = decisive != null ? decisive : lastReckoning;
            ReconciliationClassification classification = mostDangerous(found.classification(),
                    lastReckoning.classification());
            String detail = ReconciliationReport.describe(classification, action, found.drift(),
                    found.holdingMismatches(), redriven, confirmed, released, withApproval(why));
            ReconciliationReport report = new ReconciliationReport(activity.id(), item.skuId(), runAt, classification,
                    action, found.expected(), found.actual(), after, found.holdingMismatches(), redriven, confirmed,
                    released, detail);
            metrics.reported(report);
            keep(report);
            return report;
        }
    }

    /** The finding listed first in {@link ReconciliationClassification}, NONE only when both are NONE. */
    private static ReconciliationClassification mostDangerous(ReconciliationClassification a,
                                                              ReconciliationClassification b) {
        if (a == ReconciliationClassification.NONE) {
            return b;
        }
        if (b == ReconciliationClassification.NONE) {
            return a;
        }
        return a.ordinal() <= b.ordinal() ? a : b;
    }
}
