package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.reconciliation.RecordedOrder;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import io.flashsale.domain.slice.SaleSlices;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.when;

/** One open sale of one SKU and the two stores' views of it, for the reconciliation and adjustment tests. */
final class ReconciliationFixtures {

    static final ActivityId SALE = new ActivityId("flash-1");
    static final SkuId SKU = new SkuId("a");
    static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    static final Instant FRESH = NOW.minusSeconds(2);
    static final Instant STALE = NOW.minusSeconds(3600);
    static final BuyerId ANN = new BuyerId("ann");
    static final BuyerId BOB = new BuyerId("bob");
    static final ReservationId R1 = ReservationId.of(SALE, "r1");
    static final ActivityItem ITEM = new ActivityItem(SKU, 10, null, 2);
    static final Activity OPEN_SALE = sale(SALE, NOW.minusSeconds(3600), NOW.plusSeconds(3600));
    static final ReconciliationSettings SETTINGS = new ReconciliationSettings(Duration.ofSeconds(60), 3,
            Duration.ofSeconds(60));

    private ReconciliationFixtures() {
    }

    static Activity sale(ActivityId id, Instant startsAt, Instant endsAt) {
        return new Activity(id, "Flash", startsAt, endsAt, new PurchaseLimit(2), Duration.ofMinutes(15),
                List.of(new ActivityItem(SKU, 10, null, 2)));
    }

    /** The open sale, cut into three slices (ADR 109). */
    static Activity inThreeSlices(Activity sale) {
        return new Activity(sale.id(), sale.name(), sale.startsAt(), sale.endsAt(), sale.perUserLimit(),
                sale.paymentTimeout(), sale.items(), false, new SaleSlices(3));
    }

    static Optional<HotStoreSnapshot> hot(LedgerFigures figures, Map<BuyerId, Long> holdings,
                                          List<HotReservation> reservations, String version) {
        return hot(SALE, figures, holdings, reservations, version);
    }

    static Optional<HotStoreSnapshot> hot(ActivityId sale, LedgerFigures figures, Map<BuyerId, Long> holdings,
                                          List<HotReservation> reservations, String version) {
        return hot(sale, figures, holdings, reservations, Set.of(), version);
    }

    static Optional<HotStoreSnapshot> hot(ActivityId sale, LedgerFigures figures, Map<BuyerId, Long> holdings,
                                          List<HotReservation> reservations, Set<Long> appliedAdjustments,
                                          String version) {
        return Optional.of(new HotStoreSnapshot(sale, Map.of(SKU,
                new HotSkuSnapshot(SKU, figures, holdings, reservations, appliedAdjustments, version))));
    }

    static HotReservation reserved(ReservationId id, BuyerId buyer, long units, Instant at) {
        return new HotReservation(id, buyer, ReservationStatus.RESERVED, units, at, null, false);
    }

    static HotReservation held(ReservationId id, BuyerId buyer, ReservationStatus status, long units) {
        return new HotReservation(id, buyer, status, units, STALE, null, false);
    }

    static Optional<RecordedSku> recorded(long stock, long sold, Map<BuyerId, Long> purchases) {
        return Optional.of(new RecordedSku(SKU, stock, sold, purchases, Map.of(), Set.of(), List.of()));
    }

    static Optional<RecordedSku> recorded(long stock, long sold, Map<BuyerId, Long> purchases, RecordedOrder order) {
        return Optional.of(new RecordedSku(SKU, stock, sold, purchases, Map.of(order.id(), order), Set.of(), List.of()));
    }

    static Optional<RecordedSku> recorded(long stock, long sold, Map<BuyerId, Long> purchases,
                                          List<RecordedAdjustment> adjustments) {
        return Optional.of(new RecordedSku(SKU, stock, sold, purchases, Map.of(), Set.of(), adjustments));
    }

    static RecordedOrder order(ReservationId id, ReservationStatus status, boolean wasOrdered, Instant settledAt) {
        return new RecordedOrder(id, status, wasOrdered, settledAt);
    }

    /** A hot store without a view of its outbox or the broker: events are judged by their age. */
    static ReconcilingPorts reconciling(ReservationTransitionsPort reservationMoves,
                                        HotStoreReconciliationPort hotStore,
                                        RecordedStockPort recorded, RecordedOrdersPort orders,
                                        OrderTransitionsPort transitions, ReconciliationReportsPort reports,
                                        ReconciliationMetricsPort metrics) {
        return new ReconcilingPorts(reservationMoves, hotStore, RelayedEventsPort.NONE, PipelinePositionPort.NONE,
                                    recorded,
                orders, transitions, reports, metrics);
    }

    /** A hot store that keeps no recovery marks: a rebuild waits for nothing in the pipeline. */
    static RebuildPorts rebuilding(HotStoreRebuildPort hotStore, HotStoreSettlementPort settlement,
                                   RecordedStockPort recorded, RecordedOrdersPort orders,
                                   ReconciliationMetricsPort metrics) {
        return new RebuildPorts(hotStore, settlement, RelayedEventsPort.NONE, RecoveryMarkPort.NONE,
                PipelinePositionPort.NONE, recorded, orders, metrics);
    }

    /** The hot store lets this caller rebuild the sale; the database holds no orders of it. */
    static void rebuildable(HotStoreRebuildPort hotStore, RecordedOrdersPort orders, Activity sale) {
        when(hotStore.beginRebuild(sale.id(), NOW)).thenReturn(new RebuildStart.Started("r1", Optional.empty(), NOW));
        when(orders.ordersAfter(sale.id(), Optional.empty(), LedgerRebuild.PAGE)).thenReturn(List.of());
        when(hotStore.finishRebuild(eq(sale), eq("r1"), any())).thenReturn(true);
    }
}
