package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.in.ListStockAdjustmentsUseCase;
import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockAdjustment;

import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Audited stock adjustments, in one fixed order: the database of record first (it refuses a total below the units
 * sold, and appends the adjustment row in the same transaction), then the hot store (one atomic script, refused when it
 * would make available negative, applied at most once per adjustment), then a reconciliation of the SKU, which repairs
 * the hot store from the database when the hot store refused. A process that dies between the two stores leaves the
 * adjustment unapplied in the hot store; the scheduled reconciliation applies it from the database once it is overdue.
 * <p>
 * No driving adapter applies an adjustment directly: {@link AdjustmentApprovalService} runs this path once a second
 * operator approved a proposal (ADR 84).
 */
public class StockAdjustmentService implements ListStockAdjustmentsUseCase {

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final StockAdjustmentsPort adjustments;
    private final HotStoreAdjustmentPort hotStoreAdjustments;
    private final SkuReconciler reconciler;
    private final Optional<SlicedAdjustment> sliced;
    private final Clock clock;
    private final SaleChangesPort changes;

    /**
     * What an adjustment records, applies and reconciles with. The hot store's optional view comes as its null object
     * when the store has none: {@link RelayedEventsPort#NONE} judges a reservation's event by its age.
     *
     * @param relayed the hot store's outbox and the broker positions it recorded
     * @param changes told of each recorded adjustment: the sale's stock on record changed
     * @param slices  what adjusting a sale in slices needs besides (ADR 112); without it such a sale is refused
     */
    public record Ports(ActivityLookupPort activities, ActivityArchivesPort archives, StockAdjustmentsPort adjustments,
                        ReservationTransitionsPort reservations,
                        HotStoreReconciliationPort hotStore, HotStoreAdjustmentPort hotStoreAdjustments,
                        RelayedEventsPort relayed, RecordedStockPort recorded,
                        RecordedOrdersPort orders, OrderTransitionsPort transitions,
                        ReconciliationReportsPort reports, ReconciliationMetricsPort metrics, SaleChangesPort changes,
                        Optional<SlicedAdjustmentPorts> slices) {

        public Ports {
            Objects.requireNonNull(relayed, "relayed");
            Objects.requireNonNull(changes, "changes");
            Objects.requireNonNull(slices, "slices");
        }

        /** For stores without sales in slices: a sale in slices is refused ({@link SaleInSlicesException}). */
        public Ports(ActivityLookupPort activities, ActivityArchivesPort archives, StockAdjustmentsPort adjustments,
                     ReservationTransitionsPort reservations, HotStoreReconciliationPort hotStore,
                     HotStoreAdjustmentPort hotStoreAdjustments, RelayedEventsPort relayed, RecordedStockPort recorded,
                     RecordedOrdersPort orders, OrderTransitionsPort transitions, ReconciliationReportsPort reports,
                     ReconciliationMetricsPort metrics, SaleChangesPort changes) {
            this(activities, archives, adjustments, reservations, hotStore, hotStoreAdjustments, relayed, recorded,
                    orders, transitions, reports, metrics, changes, Optional.empty());
        }
    }

    public StockAdjustmentService(Ports ports, Clock clock, ReconciliationSettings settings) {
        this.activities = ports.activities();
        this.archives = ports.archives();
        this.changes = ports.changes();
        this.adjustments = ports.adjustments();
        this.hotStoreAdjustments = ports.hotStoreAdjustments();
        // Without the broker's position here, a relayed event counts as still on its way: the scheduled pass, which
        // knows the consumer's position, is the one that judges it lost.
        this.reconciler = new SkuReconciler(ports.hotStore(), ports.reservations(), ports.recorded(), ports.orders(),
                ports.transitions(), ports.reports(), ports.metrics(), clock, settings, ports.relayed(),
                PipelinePositionPort.NONE);
        this.sliced = ports.slices().map(slices -> new SlicedAdjustment(slices, reconciler));
        this.clock = clock;
    }

    /**
     * Changes a SKU's total by {@code delta}: first in the database of record (never below the units sold; the
     * adjustment row is appended in the same transaction), then in the hot store (never making available negative),
     * then the SKU is reconciled, which repairs the hot store if it refused.
     *
     * @throws io.flashsale.domain.shared.InvalidValueException when delta is 0 or out of range, or reason or operator
     *                                                          is blank or too long
     * @throws ActivityNotFoundException when there is no such activity
     * @throws SkuNotFoundException      when the activity has no such SKU
     * @throws ActivityArchivedException when the sale was archived
     */
    public StockAdjustmentResult adjust(ActivityId activityId, SkuId skuId, long delta, String reason, String operator) {
        StockAdjustment.requireDelta(delta);
        StockAdjustment.requireReason(reason);
        StockAdjustment.requireOperator(operator);
        AdjustableItem target = adjustable(activityId, skuId);
        return settle(target, adjustments.record(activityId, skuId, delta, operator, reason, clock.instant()));
    }

    /** The sale and its item, while adjustments of them may still be made. */
    AdjustableItem adjustable(ActivityId activityId, SkuId skuId) {
        Activity activity = activities.findById(activityId)
                .orElseThrow(() -> new ActivityNotFoundException(activityId));
        ActivityItem item = activity.item(skuId).orElseThrow(() -> new SkuNotFoundException(activityId, skuId));
        if (activity.slices().sliced() && sliced.isEmpty()) {
            throw new SaleInSlicesException(activityId, activity.slices().count(), "a stock adjustment");
        }
        if (archives.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        return new AdjustableItem(activity, item);
    }

    /** What follows the database's recording, for every adjustment alike: the hot store, then the SKU reconciled. */
    StockAdjustmentResult settle(AdjustableItem target, AdjustmentRecording recording) {
        ActivityId activityId = target.activity().id();
        return switch (recording) {
            case AdjustmentRecording.Recorded recorded -> {
                try {
                    yield target.activity().slices().sliced()
                            ? sliced.orElseThrow().apply(target.activity(), target.item(), recorded.adjustment())
                            : applyToHotStore(target.activity(), target.item(), recorded.adjustment());
                } finally {
                    // The database's total moved whatever the hot store did.
                    changes.announce(activityId);
                }
            }
            case AdjustmentRecording.BelowSold below -> new StockAdjustmentResult.BelowSold(below.stock(), below.sold());
            case AdjustmentRecording.AboveMaximum above -> new StockAdjustmentResult.AboveMaximum(above.stock());
            case AdjustmentRecording.UnknownSku unknown -> throw new SkuNotFoundException(activityId,
                    target.item().skuId());
        };
    }

    private StockAdjustmentResult applyToHotStore(Activity activity, ActivityItem item, StockAdjustment adjustment) {
        LedgerAdjustment applied = hotStoreAdjustments.adjust(activity.id(), item.skuId(), adjustment.delta(),
                                                              adjustment.id());
        if (applied instanceof LedgerAdjustment.NotLoaded) {
            // Loaded later from the database's total, which includes this adjustment.
            return new StockAdjustmentResult.Adjusted(adjustment, applied, null);
        }
        // Refused (or the ledger is gone): it will never arrive by itself, so the database's total is the truth now.
        Set<Long> landed = applied instanceof LedgerAdjustment.Applied || applied instanceof LedgerAdjustment.AlreadyApplied
                ? Set.of() : Set.of(adjustment.id());
        Optional<ReconciliationReport> report = reconciler.reconcile(activity, item, Optional.empty(), landed,
                new HashSet<>());
        return new StockAdjustmentResult.Adjusted(adjustment, applied, report.orElse(null));
    }

    @Override
    public List<StockAdjustment> list(ActivityId activityId) {
        if (activities.findById(activityId).isEmpty()) {
            throw new ActivityNotFoundException(activityId);
        }
        return adjustments.findByActivity(activityId);
    }

    record AdjustableItem(Activity activity, ActivityItem item) {
    }
}
