package io.flashsale.application.reference;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.ActivityLedger;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.SkuStock;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reference model of the stock port: the domain's {@link ActivityLedger} behind one lock.
 * The Redis scripts must behave exactly like this; the contract and model-based tests check it.
 * It also serves reconciliation; it keeps no outbox, so no reservation is ever reported waiting in one.
 */
public class InMemoryStockReservations
        implements StockReservationPort, HeldReservationsPort, ReservationTransitionsPort, HotStoreReconciliationPort,
        HotStoreRebuildPort, HotStoreAdjustmentPort, HotStoreSettlementPort, HotStoreSaleTermsPort {

    private final Map<ActivityId, ActivityLedger> ledgers = new HashMap<>();
    private final BuyerBuckets buckets = new BuyerBuckets();

    @Override
    public synchronized List<SkuStock> warmUp(Activity activity) {
        return ledgers.computeIfAbsent(activity.id(), id -> ActivityLedger.warmUp(activity)).stock();
    }

    @Override
    public synchronized ReservationOutcome reserve(ReservationRequest request) {
        ActivityLedger ledger = ledgers.get(request.activityId());
        // A replay first, taking no token (ADR 0068), as reserve.lua does.
        Optional<ReservationOutcome> replay = Optional.ofNullable(ledger)
                .flatMap(sale -> sale.replay(request.buyerId(), request.requestId()));
        if (replay.isPresent()) {
            return replay.get();
        }
        Optional<ReservationOutcome> limited = buckets.take(request);
        if (limited.isPresent()) {
            return limited.get();
        }
        return ledger == null ? new ReservationOutcome.NotReady() : ledger.reserve(request);
    }

    @Override
    public synchronized boolean release(ReservationId reservationId) {
        ActivityLedger ledger = ledgers.get(reservationId.activityId());
        return ledger != null && ledger.release(reservationId);
    }

    @Override
    public synchronized boolean release(ReservationId reservationId, Instant cancelledAt) {
        ActivityLedger ledger = ledgers.get(reservationId.activityId());
        return ledger != null && ledger.release(reservationId, cancelledAt);
    }

    @Override
    public synchronized Optional<Instant> cancelledAt(ReservationId reservationId) {
        return Optional.ofNullable(ledgers.get(reservationId.activityId()))
                .flatMap(ledger -> ledger.cancelledAt(reservationId));
    }

    @Override
    public synchronized Optional<ReservationStatus> restore(PendingRestore restore) {
        ActivityLedger ledger = ledgers.get(restore.reservationId().activityId());
        return ledger == null ? Optional.empty() : ledger.restore(restore.reservationId(), restore.buyerId(),
                restore.requestId(), restore.lines(), restore.finalStatus());
    }

    @Override
    public synchronized boolean markPaid(ReservationId reservationId) {
        ActivityLedger ledger = ledgers.get(reservationId.activityId());
        return ledger != null && ledger.markPaid(reservationId);
    }

    @Override
    public synchronized boolean confirm(ReservationId reservationId) {
        ActivityLedger ledger = ledgers.get(reservationId.activityId());
        return ledger != null && ledger.confirm(reservationId);
    }

    @Override
    public synchronized boolean fail(ReservationId reservationId) {
        ActivityLedger ledger = ledgers.get(reservationId.activityId());
        return ledger != null && ledger.fail(reservationId);
    }

    @Override
    public synchronized Map<ReservationId, HeldStatus> statuses(ActivityId activityId,
                                                              List<ReservationId> reservationIds) {
        Map<ReservationId, HeldStatus> held = new HashMap<>();
        for (ReservationId id : reservationIds) {
            findReservation(id).ifPresent(r -> held.put(id, new HeldStatus(r.status(), cancelledAt(id).orElse(null))));
        }
        return held;
    }

    @Override
    public synchronized Map<ReservationId, ReservationStatus> settle(ActivityId activityId,
                                                                    List<ReservationId> confirmed,
                                                                    List<ReservationId> failed) {
        Map<ReservationId, ReservationStatus> before = statusesBefore(confirmed, failed);
        confirmed.forEach(this::confirm);
        failed.forEach(id -> Optional.ofNullable(ledgers.get(id.activityId()))
                .ifPresent(ledger -> ledger.failReleasing(id)));
        return before;
    }

    /** One after the other, as restore_batch.lua decides them (a batch never holds an id twice). */
    @Override
    public synchronized Map<ReservationId, ReservationStatus> restore(ActivityId activityId,
                                                                     List<PendingRestore> restores) {
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        restores.forEach(restore -> restore(restore).ifPresent(status -> before.put(restore.reservationId(), status)));
        return before;
    }

    @Override
    public synchronized Map<ReservationId, ReservationStatus> restoreStatuses(ActivityId activityId,
                                                                             List<PendingRestore> owed) {
        ActivityLedger ledger = ledgers.get(activityId);
        Map<ReservationId, ReservationStatus> held = new HashMap<>();
        if (ledger != null) {
            owed.forEach(restore -> ledger.restoreStatus(restore.reservationId(), restore.buyerId(),
                    restore.requestId()).ifPresent(status -> held.put(restore.reservationId(), status)));
        }
        return held;
    }

    private Map<ReservationId, ReservationStatus> statusesBefore(List<ReservationId> first,
                                                                 List<ReservationId> second) {
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        for (List<ReservationId> ids : List.of(first, second)) {
            ids.forEach(id -> findReservation(id).ifPresent(r -> before.put(id, r.status())));
        }
        return before;
    }

    @Override
    public synchronized Optional<Reservation> findReservation(ReservationId reservationId) {
        return Optional.ofNullable(ledgers.get(reservationId.activityId()))
                .flatMap(ledger -> ledger.reservation(reservationId));
    }

    /** One ledger a sale: the reference decides a sale as one slice. */
    @Override
    public SaleSlices slices(ActivityId activityId) {
        return SaleSlices.ONE;
    }

    @Override
    public synchronized Optional<List<SkuStock>> stock(ActivityId activityId) {
        return Optional.ofNullable(ledgers.get(activityId)).map(ActivityLedger::stock);
    }

    @Override
    public synchronized Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId) {
        ActivityLedger ledger = ledgers.get(activityId);
        return ledger == null ? Map.of() : ledger.holdings(buyerId);
    }

    @Override
    public synchronized Optional<HotStoreSnapshot> snapshot(ActivityId activityId) {
        ActivityLedger ledger = ledgers.get(activityId);
        if (ledger == null) {
            return Optional.empty();
        }
        Map<SkuId, HotSkuSnapshot> skus = new LinkedHashMap<>();
        for (ActivityItem item : ledger.activity().items()) {
            skus.put(item.skuId(), ledger.snapshot(item.skuId()));
        }
        return Optional.of(new HotStoreSnapshot(activityId, skus));
    }

    @Override
    public synchronized LedgerRepairResult repair(ActivityId activityId, LedgerRepair repair) {
        ActivityLedger ledger = ledgers.get(activityId);
        if (ledger == null) {
            return LedgerRepairResult.NOT_LOADED;
        }
        return ledger.repair(repair) ? LedgerRepairResult.REPAIRED : LedgerRepairResult.RETRY;
    }

    /** Without an outbox there is nothing to append to: true when the reservation is still RESERVED. */
    @Override
    public synchronized boolean redrive(ReservationId reservationId) {
        return findReservation(reservationId).map(Reservation::status).filter(ReservationStatus.RESERVED::equals)
                .isPresent();
    }

    @Override
    public synchronized LedgerAdjustment adjust(ActivityId activityId, SkuId skuId, long delta, long adjustmentId) {
        ActivityLedger ledger = ledgers.get(activityId);
        return ledger == null ? new LedgerAdjustment.NotLoaded() : ledger.adjust(skuId, delta, adjustmentId);
    }

    /** A rebuild under way: the pages' orders so far and the cursor the next page follows. */
    private record Rebuild(String id, Optional<ReservationId> cursor, List<Order> orders, Instant since) {
    }

    private final Map<ActivityId, Rebuild> rebuilding = new HashMap<>();
    private long rebuilds;

    /** As Redis: nothing partial survives in memory, and a begun rebuild stays with its runner (no lease here). */
    @Override
    public synchronized RebuildStart beginRebuild(ActivityId activityId, Instant since) {
        if (ledgers.containsKey(activityId)) {
            return new RebuildStart.Loaded();
        }
        if (rebuilding.containsKey(activityId)) {
            return new RebuildStart.Rebuilding();
        }
        String id = "rebuild-" + ++rebuilds;
        rebuilding.put(activityId, new Rebuild(id, Optional.empty(), List.of(), since));
        return new RebuildStart.Started(id, Optional.empty(), since);
    }

    @Override
    public synchronized boolean rebuildPage(ActivityId activityId, String rebuildId, Optional<ReservationId> after,
                                            ReservationId last, List<Order> orders) {
        Rebuild current = rebuilding.get(activityId);
        if (current == null || !current.id().equals(rebuildId) || !current.cursor().equals(after)) {
            return false;
        }
        List<Order> all = new ArrayList<>(current.orders());
        all.addAll(orders);
        rebuilding.put(activityId, new Rebuild(rebuildId, Optional.of(last), List.copyOf(all), current.since()));
        return true;
    }

    @Override
    public synchronized boolean applyPaused(ActivityId activityId, boolean paused) {
        ActivityLedger ledger = ledgers.get(activityId);
        if (ledger == null) {
            return false;
        }
        ledger.changeTerms(paused ? ledger.activity().pause() : ledger.activity().resume());
        return true;
    }

    @Override
    public synchronized boolean applyWindow(ActivityId activityId, Instant startsAt, Instant endsAt) {
        ActivityLedger ledger = ledgers.get(activityId);
        if (ledger == null) {
            return false;
        }
        Activity sale = ledger.activity();
        ledger.changeTerms(new Activity(sale.id(), sale.name(), startsAt, endsAt, sale.perUserLimit(),
                sale.paymentTimeout(), sale.items(), sale.paused()));
        return true;
    }

    @Override
    public synchronized boolean finishRebuild(Activity activity, String rebuildId, List<SkuRebuild> skus) {
        Rebuild current = rebuilding.get(activity.id());
        if (current == null || !current.id().equals(rebuildId)) {
            return false;
        }
        ledgers.put(activity.id(), ActivityLedger.rebuild(activity, skus, current.orders()));
        rebuilding.remove(activity.id());
        return true;
    }
}
