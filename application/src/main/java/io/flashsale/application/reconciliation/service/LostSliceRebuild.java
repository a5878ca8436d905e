package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SliceAllotment;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Rebuilds the slices of a sale in slices that the hot store lost, each alone from the database of record while the
 * others go on selling (ADR 111): begin (drops what the loss left of the slice), the transfers the loss settles, one
 * page of the slice's orders per call, finish (each SKU's allotment, then ready), then the catch-up of the slice's
 * orders closed meanwhile, as {@link LedgerRebuild} does for a whole sale. Slices the hot store holds are left alone.
 *
 * <p>A lost slice's stock transfers are settled in the database before its allotment is read, each by the conditional
 * step a runner would take: one it had not given units to yet gives none (REQUESTED to DONE, 0 moved), and one on its
 * way to it is held by it (TAKEN to DONE). Whether a runner's step reached the slice before the loss or not, the units
 * then count once: a take that landed went with the lost data, a credit that landed is what the DONE row counts, and a
 * runner that comes later finds the row moved on. The finish marks every step the rows say the slice made, so a step
 * held up in a client (a failover) and landing after the finish changes nothing either.
 */
final class LostSliceRebuild {

    private final SliceRebuildPorts ports;
    private final ClosedOrdersCatchUp catchUp;
    private final ReconciliationMetricsPort metrics;
    private final Clock clock;
    private final int page;

    LostSliceRebuild(SliceRebuildPorts ports, HotStoreSettlementPort settlement, RecordedOrdersPort orders,
                     ReconciliationMetricsPort metrics, Clock clock, int page) {
        if (page < 1) {
            throw new IllegalArgumentException("page must be positive, was " + page);
        }
        this.ports = ports;
        this.catchUp = new ClosedOrdersCatchUp(orders, settlement, page);
        this.metrics = metrics;
        this.clock = clock;
        this.page = page;
    }

    /** The slices of the sale the hot store does not hold loaded and ready: lost, or being rebuilt. */
    List<SaleSlice> lost(Activity activity) {
        return activity.slices().of(activity.id()).stream()
                .filter(slice -> !ports.hotStore().loaded(slice))
                .toList();
    }

    /** True when none of these slices holds an outbox entry the relays have not acknowledged. */
    boolean outboxesDrained(List<SaleSlice> slices) {
        return slices.stream().allMatch(ports.hotStore()::outboxDrained);
    }

    /**
     * Rebuilds each of {@code lost} unless it is loaded by now: REBUILT when one was rebuilt and none is left half
     * done, IN_PROGRESS while one is, else ALREADY_LOADED.
     */
    RebuildOutcome run(Activity activity, List<SaleSlice> lost) {
        boolean rebuilt = false;
        boolean unfinished = false;
        for (SaleSlice slice : lost) {
            switch (run(activity, slice)) {
                case REBUILT -> rebuilt = true;
                case IN_PROGRESS -> unfinished = true;
                default -> { }
            }
        }
        return unfinished ? RebuildOutcome.IN_PROGRESS
                : rebuilt ? RebuildOutcome.REBUILT : RebuildOutcome.ALREADY_LOADED;
    }

    private RebuildOutcome run(Activity activity, SaleSlice slice) {
        RebuildStart start = ports.hotStore().beginRebuild(slice, clock.instant());
        return switch (start) {
            case RebuildStart.Loaded loaded -> RebuildOutcome.ALREADY_LOADED;
            case RebuildStart.Rebuilding rebuilding -> RebuildOutcome.IN_PROGRESS;
            case RebuildStart.OutboxPending pending -> RebuildOutcome.IN_PROGRESS;
            case RebuildStart.Started started -> rebuild(activity, slice, started);
        };
    }

    private RebuildOutcome rebuild(Activity activity, SaleSlice slice, RebuildStart.Started started) {
        settleTransfers(slice);
        Optional<ReservationId> after = started.after();
        for (List<Order> batch = ports.orders().ordersAfter(slice, after, page); !batch.isEmpty();
             batch = ports.orders().ordersAfter(slice, after, page)) {
            ReservationId last = batch.getLast().id();
            if (!ports.hotStore().rebuildPage(slice, started.rebuildId(), after, last, batch)) {
                return RebuildOutcome.IN_PROGRESS;
            }
            after = Optional.of(last);
        }
        List<StockTransfer> transfers = ports.transfers().findByActivity(activity.id());
        List<SkuRebuild> figures = activity.items().stream().map(item -> figures(slice, item, transfers)).toList();
        if (!ports.hotStore().finishRebuild(activity, slice, started.rebuildId(), figures, transfers)) {
            return RebuildOutcome.IN_PROGRESS;
        }
        // The slice's orders only: the other slices' hot stores were never lost.
        catchUp.restore(slice.activityId(), started.since().minus(LedgerRebuild.CLOCK_MARGIN),
                order -> order.id().slice().index() == slice.index());
        metrics.rebuilt(activity.id(), figures);
        return RebuildOutcome.REBUILT;
    }

    /**
     * Moves on every row in which the lost slice's step is settled by the loss (see the class comment). A row another
     * runner moved first is left as it is now: its step reached the database first.
     */
    private void settleTransfers(SaleSlice slice) {
        for (StockTransfer transfer : ports.transfers().findByActivity(slice.activityId())) {
            if (transfer.from() == slice.index() && transfer.state() == TransferState.REQUESTED) {
                ports.transfers().advance(transfer, transfer.taken(0));
            } else if (transfer.to() == slice.index() && transfer.state() == TransferState.TAKEN) {
                ports.transfers().advance(transfer, transfer.done());
            }
        }
    }

    private SkuRebuild figures(SaleSlice slice, ActivityItem item, List<StockTransfer> transfers) {
        RecordedSku recorded = ports.recorded().recordedSlice(slice, item.skuId(), List.of(), PurchaseScope.SUM_ONLY)
                .orElseThrow(() -> new SkuNotFoundException(slice.activityId(), item.skuId()));
        SliceAllotment allotment = SliceAllotment.of(slice, item.skuId(), recorded.stock(), transfers);
        if (recorded.sold() > allotment.units()) {
            throw new IllegalStateException("slice " + slice.index() + " of " + slice.activityId() + " sold "
                    + recorded.sold() + " units of " + item.skuId() + " by the database, more than its allotment of "
                    + allotment.units() + ": not rebuilt");
        }
        // Its allotment includes every adjustment's part in it (ADR 112): marked applied, so none lands twice.
        return new SkuRebuild(item.skuId(), allotment.units(), recorded.sold(), Map.of(),
                recorded.adjustments().stream().map(RecordedAdjustment::id).collect(Collectors.toSet()));
    }
}
