package io.flashsale.adapter.mysql;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reference.InMemoryStockReservations;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.SkuStock;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The reference hot store with the damage Redis can suffer, for tests only: losing everything (a restart without
 * persistence), losing one SKU's ledger (a deleted key), and re-driven events kept for the test to deliver as a relay
 * would. Every move goes to the current reference store.
 */
final class DamageableHotStore implements StockReservationPort, HeldReservationsPort, ReservationTransitionsPort,
        HotStoreReconciliationPort, HotStoreRebuildPort, HotStoreAdjustmentPort, HotStoreSettlementPort {

    private volatile InMemoryStockReservations store = new InMemoryStockReservations();
    final List<ReservationId> redriven = new CopyOnWriteArrayList<>();

    /** Redis restarted empty: every activity is gone. */
    void flush() {
        store = new InMemoryStockReservations();
    }

    /** The SKU's ledger key is deleted: it reads as nothing at all (its reservations and holdings stay). */
    void loseLedger(ActivityId activityId, SkuId skuId) {
        HotSkuSnapshot seen = store.snapshot(activityId).orElseThrow().sku(skuId).orElseThrow();
        LedgerRepairResult lost = store.repair(activityId, new LedgerRepair(skuId, LedgerFigures.ZERO,
                seen.holdings(), Set.of(), seen.version(), 1, 1));
        if (lost != LedgerRepairResult.REPAIRED) {
            throw new IllegalStateException("could not damage " + skuId + ": " + lost);
        }
    }

    @Override
    public Map<ReservationId, ReservationStatus> restoreStatuses(ActivityId activityId, List<PendingRestore> owed) {
        return store.restoreStatuses(activityId, owed);
    }

    @Override
    public List<SkuStock> warmUp(Activity activity) {
        return store.warmUp(activity);
    }

    @Override
    public ReservationOutcome reserve(ReservationRequest request) {
        return store.reserve(request);
    }

    @Override
    public boolean release(ReservationId reservationId) {
        return store.release(reservationId);
    }

    @Override
    public boolean release(ReservationId reservationId, Instant cancelledAt) {
        return store.release(reservationId, cancelledAt);
    }

    @Override
    public Optional<Instant> cancelledAt(ReservationId reservationId) {
        return store.cancelledAt(reservationId);
    }

    @Override
    public Optional<ReservationStatus> restore(PendingRestore restore) {
        return store.restore(restore);
    }

    @Override
    public boolean markPaid(ReservationId reservationId) {
        return store.markPaid(reservationId);
    }

    @Override
    public boolean confirm(ReservationId reservationId) {
        return store.confirm(reservationId);
    }

    @Override
    public boolean fail(ReservationId reservationId) {
        return store.fail(reservationId);
    }

    @Override
    public Optional<Reservation> findReservation(ReservationId reservationId) {
        return store.findReservation(reservationId);
    }

    @Override
    public SaleSlices slices(ActivityId activityId) {
        return store.slices(activityId);
    }

    @Override
    public Optional<List<SkuStock>> stock(ActivityId activityId) {
        return store.stock(activityId);
    }

    @Override
    public Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId) {
        return store.holdings(activityId, buyerId);
    }

    @Override
    public Optional<HotStoreSnapshot> snapshot(ActivityId activityId) {
        return store.snapshot(activityId);
    }

    @Override
    public LedgerRepairResult repair(ActivityId activityId, LedgerRepair repair) {
        return store.repair(activityId, repair);
    }

    @Override
    public boolean redrive(ReservationId reservationId) {
        boolean appended = store.redrive(reservationId);
        if (appended) {
            redriven.add(reservationId);
        }
        return appended;
    }

    @Override
    public LedgerAdjustment adjust(ActivityId activityId, SkuId skuId, long delta, long adjustmentId) {
        return store.adjust(activityId, skuId, delta, adjustmentId);
    }

    @Override
    public RebuildStart beginRebuild(ActivityId activityId, Instant since) {
        return store.beginRebuild(activityId, since);
    }

    @Override
    public boolean rebuildPage(ActivityId activityId, String rebuildId, Optional<ReservationId> after,
                               ReservationId last, List<Order> orders) {
        return store.rebuildPage(activityId, rebuildId, after, last, orders);
    }

    @Override
    public boolean finishRebuild(Activity activity, String rebuildId, List<SkuRebuild> skus) {
        return store.finishRebuild(activity, rebuildId, skus);
    }

    @Override
    public Map<ReservationId, HeldStatus> statuses(ActivityId activityId, List<ReservationId> reservationIds) {
        return store.statuses(activityId, reservationIds);
    }

    @Override
    public Map<ReservationId, ReservationStatus> settle(ActivityId activityId, List<ReservationId> confirmed,
                                                        List<ReservationId> failed) {
        return store.settle(activityId, confirmed, failed);
    }

    @Override
    public Map<ReservationId, ReservationStatus> restore(ActivityId activityId, List<PendingRestore> restores) {
        return store.restore(activityId, restores);
    }
}
