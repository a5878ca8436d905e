package io.flashsale.adapter.mysql;

import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.service.CancellationService;
import io.flashsale.application.order.service.OrderService;
import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.service.RebuildPorts;
import io.flashsale.application.reconciliation.service.ReconcileService;
import io.flashsale.application.reconciliation.service.ReconciliationSettings;
import io.flashsale.application.reconciliation.service.ReconcilingPorts;
import io.flashsale.application.reconciliation.service.StockAdjustmentService;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reconciliation end to end on the database side: the real MySQL adapters as the database of record, and the reference
 * hot store with the damage Redis can suffer ({@link DamageableHotStore}) as Redis. Each drift the issue names is made,
 * reconciled, classified, and shown repaired: afterwards both stores agree exactly and nothing is oversold. A busy sale
 * reconciled over and over shows no drift and is never repaired.
 */
@SpringBootTest(classes = MysqlAdapterTestApplication.class)
class ReconciliationFlowIT extends ReconciliationDatabase {

    private static final Duration GRACE = Duration.ofSeconds(60);
    private static final SkuId A = new SkuId("a");
    private static final SkuId B = new SkuId("b");
    private static final OrderPipelineMetricsPort NO_PIPELINE_METRICS = new OrderPipelineMetricsPort() {
        @Override
        public void recorded(OrderPlacement placement) {
        }

        @Override
        public void relayed(int reservations) {
        }
    };

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlRecordedStock recordedStock;

    @Autowired
    MysqlRecordedOrders recordedOrders;

    @Autowired
    MysqlStockAdjustments adjustmentRecords;

    @Autowired
    MysqlReconciliationReports reports;

    @Autowired
    MysqlSalesFigures figures;

    @Autowired
    DataSource dataSource;

    private final Instant era = TestEras.next();
    private final TestClock clock = new TestClock(era.plusSeconds(1));
    private final DamageableHotStore hot = new DamageableHotStore();
    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();
    private OrderService pipeline;
    private ReservationService reservations;
    private CancellationService cancellations;
    private ReconcileService reconciliation;
    private StockAdjustmentService adjustments;

    @BeforeEach
    void wireTheServices() {
        ReconciliationSettings settings = new ReconciliationSettings(GRACE, 5, Duration.ofSeconds(60));
        pipeline = new OrderService(orders, orders, orders, hot, hot, NO_PIPELINE_METRICS, clock);
        reservations = new ReservationService(hot, hot, activities, orders, () -> token().substring(0, 20), clock);
        cancellations = new CancellationService(orders, orders, orders, hot, hot, clock);
        reconciliation = new ReconcileService(activities,
                new ReconcilingPorts(hot, hot, RelayedEventsPort.NONE, PipelinePositionPort.NONE, recordedStock,
                recordedOrders, orders, reports, metrics),
                new RebuildPorts(hot, hot, RelayedEventsPort.NONE, RecoveryMarkPort.NONE, PipelinePositionPort.NONE,
                        recordedStock, recordedOrders, metrics),
                clock, settings);
        adjustments = new StockAdjustmentService(new StockAdjustmentService.Ports(activities, activities,
                adjustmentRecords, hot, hot, hot,
                RelayedEventsPort.NONE, recordedStock, recordedOrders, orders, reports, metrics, SaleChangesPort.none()),
                clock, settings);
    }

    // ---- the drift cases ----

    @Test
    void givenALedgerKeyDeletedMidSale_whenReconciled_thenRedisBehindRepairedFromMySqlAndTheSaleGoesOn() {
        ActivityId sale = sale(item("a", 10), item("b", 4));
        place(reserve(sale, "ann", line("a", 2)));
        place(reserve(sale, "bob", line("a", 1), line("b", 1)));
        Reservation inFlight = reserve(sale, "cid", line("a", 1));
        hot.loseLedger(sale, A);
        assertThat(hot.reserve(request(sale, "dan", line("a", 1)))).isEqualTo(new ReservationOutcome.SoldOut(A));

        ReconciliationReport report = reconciliation.reconcile(sale, A);

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_BEHIND);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(ledger(sale, A)).isEqualTo(new StockLedger(10, 1, 3));
        assertThat(hot.holdings(sale, buyer("cid"))).isEqualTo(Map.of(A, 1L));
        assertThat(metrics.repaired).containsExactly(report);
        assertThat(reports.findRecent(sale, 5)).containsExactly(kept(report));
        place(inFlight);
        place(reserve(sale, "dan", line("a", 1)));
        assertStoresAgree(sale);
        assertThat(reconciliation.reconcile(sale, A).classification()).isEqualTo(ReconciliationClassification.NONE);
    }

    @Test
    void givenRedisFlushedMidSale_thenBuyersWaitUntilTheLedgerIsRebuiltAndALateOrderOfTheLostStoreIsRepairedIn() {
        ActivityId sale = sale(item("a", 10), item("b", 4));
        place(reserve(sale, "ann", line("a", 2)));
        place(reserve(sale, "bob", line("b", 1)));
        Reservation relayedBeforeTheFlush = reserve(sale, "cid", line("a", 3));
        hot.flush();
        assertThat(reservations.reserve(command(sale, "dan", line("a", 1)))).isEqualTo(new ReservationOutcome.NotReady());

        ActivityReconciliation rebuilt = reconciliation.reconcile(sale);

        assertThat(rebuilt.hotStore()).isEqualTo(ActivityReconciliation.HotStoreState.REBUILT);
        assertThat(rebuilt.reports()).extracting(ReconciliationReport::classification)
                .containsExactly(ReconciliationClassification.NONE, ReconciliationClassification.NONE);
        assertThat(metrics.rebuilt).containsExactly(sale);
        assertThat(hot.stock(sale).orElseThrow()).containsExactly(new SkuStock(A, new StockLedger(10, 0, 2)),
                new SkuStock(B, new StockLedger(4, 0, 1)));
        assertStoresAgree(sale);

        // Kafka still delivers what the relay handed over before Redis lost it: MySQL takes it, Redis cannot confirm it.
        assertThat(pipeline.placeOrder(relayedBeforeTheFlush)).isInstanceOf(OrderPlacement.Placed.class);
        ReconciliationReport caughtUp = reconciliation.reconcile(sale, A);

        assertThat(caughtUp.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(caughtUp.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertStoresAgree(sale);
        sellOut(sale, A);
        assertStoresAgree(sale);
        assertThat(figures.soldBySku(sale)).containsEntry(A, 10L);
    }

    @Test
    void givenAReservationWhoseEventNeverReachedKafka_whenOverdue_thenItIsReDrivenAndTheOrderFollows() {
        ActivityId sale = sale(item("a", 10));
        Reservation lost = reserve(sale, "ann", line("a", 2));
        place(reserve(sale, "bob", line("a", 1)));
        assertThat(reconciliation.reconcile(sale, A).classification()).as("within the grace period: in flight")
                .isEqualTo(ReconciliationClassification.NONE);
        clock.advance(GRACE.plusSeconds(1));

        ReconciliationReport report = reconciliation.reconcile(sale, A);

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.UNKNOWN_RESERVATION);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REDRIVEN);
        assertThat(report.redriven()).containsExactly(lost.id());
        assertThat(report.drift().isZero()).isTrue();
        assertThat(hot.redriven).containsExactly(lost.id());
        // The relay delivers the re-driven event; a duplicate of it would find the order.
        place(hot.findReservation(hot.redriven.getFirst()).orElseThrow());
        assertThat(pipeline.placeOrder(lost)).isInstanceOf(OrderPlacement.AlreadyPlaced.class);
        assertStoresAgree(sale);
        assertThat(reconciliation.reconcile(sale, A).action()).isEqualTo(ReconciliationAction.NONE);
    }

    @Test
    void givenAnOrderWhoseConfirmationNeverReachedRedis_whenOverdue_thenMissingReservationConfirmed() {
        ActivityId sale = sale(item("a", 10));
        Reservation unconfirmed = reserve(sale, "ann", line("a", 2));
        assertThat(orders.place(unconfirmed, clock.instant())).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(reconciliation.reconcile(sale, A).classification()).as("the confirm is on its way: counted once")
                .isEqualTo(ReconciliationClassification.NONE);
        clock.advance(GRACE.plusSeconds(1));

        ReconciliationReport report = reconciliation.reconcile(sale, A);

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.MISSING_RESERVATION);
        assertThat(report.action()).isEqualTo(ReconciliationAction.CONFIRMED);
        assertThat(report.confirmed()).containsExactly(unconfirmed.id());
        assertThat(hot.findReservation(unconfirmed.id())).as("confirmed: the record left (ADR 71)").isEmpty();
        assertStoresAgree(sale);
    }

    @Test
    void givenABuyersCancelThatWonInRedisWhileItsOrderCommitted_whenOverdue_thenTheOrderIsCancelledAndUnitsBackOnce() {
        ActivityId sale = sale(item("a", 10));
        Reservation raced = reserve(sale, "ann", line("a", 2));
        place(reserve(sale, "bob", line("a", 1)));
        // The order commits in MySQL while the buyer's cancel wins in Redis; the confirm that would notice never runs.
        assertThat(orders.place(raced, clock.instant())).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(hot.release(raced.id(), clock.instant())).isTrue();
        assertThat(reconciliation.reconcile(sale, A).classification()).as("within the grace period: on its way")
                .isEqualTo(ReconciliationClassification.NONE);
        clock.advance(GRACE.plusSeconds(1));

        ReconciliationReport report = reconciliation.reconcile(sale, A);

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.MISSING_RESERVATION);
        assertThat(report.action()).isEqualTo(ReconciliationAction.CONFIRMED);
        assertThat(report.confirmed()).containsExactly(raced.id());
        assertThat(orders.find(raced.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(hot.findReservation(raced.id()).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(figures.soldBySku(sale)).containsEntry(A, 1L);
        assertThat(ledger(sale, A)).isEqualTo(new StockLedger(10, 0, 1));
        assertStoresAgree(sale);
        ReconciliationReport again = reconciliation.reconcile(sale, A);
        assertThat(again.action()).as("the units came back once").isEqualTo(ReconciliationAction.NONE);
        assertThat(figures.soldBySku(sale)).containsEntry(A, 1L);
        assertThat(ledger(sale, A)).isEqualTo(new StockLedger(10, 0, 1));
    }

    @Test
    void givenManualAdjustmentsUpAndDownDuringASale_thenEachIsAuditedAppliedOnceAndTheStoresAgree() throws Exception {
        ActivityId sale = sale(item("a", 30));
        AtomicInteger placed = new AtomicInteger();
        List<StockAdjustmentResult> results = new ArrayList<>();
        try (ExecutorService buyers = Executors.newFixedThreadPool(4)) {
            List<Future<?>> selling = new ArrayList<>();
            for (int b = 0; b < 30; b++) {
                String name = "buyer-" + b;
                selling.add(buyers.submit(() -> {
                    if (hot.reserve(request(sale, name, line("a", 1))) instanceof ReservationOutcome.Reserved(var r)
                            && pipeline.placeOrder(r) instanceof OrderPlacement.Placed) {
                        placed.incrementAndGet();
                    }
                }));
                if (b == 10) {
                    results.add(adjustments.adjust(sale, A, 5, "restock from the warehouse", "admin-1"));
                }
                if (b == 20) {
                    results.add(adjustments.adjust(sale, A, -3, "three were damaged", "admin-2"));
                }
            }
            for (Future<?> sold : selling) {
                sold.get(1, TimeUnit.MINUTES);
            }
        }

        assertThat(results).allSatisfy(result -> assertThat(result).isInstanceOfSatisfying(
                StockAdjustmentResult.Adjusted.class, adjusted -> {
                    assertThat(adjusted.hotStore()).isInstanceOf(LedgerAdjustment.Applied.class);
                    assertThat(adjusted.report().classification()).isEqualTo(ReconciliationClassification.NONE);
                }));
        assertThat(adjustmentRecords.findByActivity(sale)).extracting(adjustment -> adjustment.delta())
                .containsExactly(5L, -3L);
        assertThat(placed.get()).isEqualTo(30);
        assertThat(ledger(sale, A)).isEqualTo(new StockLedger(32, 0, 30));
        assertStoresAgree(sale);
        assertThat(reconciliation.reconcile(sale, A).isClean()).isTrue();
        assertThat(metrics.repaired).isEmpty();
    }

    @Test
    void givenAReductionRedisCannotSpareBecauseOfReservationsInFlight_thenMySqlDecidesAndRedisIsRepairedFromIt() {
        ActivityId sale = sale(item("a", 5));
        Reservation fits = reserve(sale, "ann", line("a", 1));
        Reservation tooMany = reserve(sale, "bob", line("a", 3));
        reserve(sale, "cid", line("a", 1));

        StockAdjustmentResult result = adjustments.adjust(sale, A, -3, "recall", "admin-1");

        assertThat(result).isInstanceOfSatisfying(StockAdjustmentResult.Adjusted.class, adjusted -> {
            assertThat(adjusted.hotStore()).isEqualTo(new LedgerAdjustment.Refused(0));
            assertThat(adjusted.report().action()).isEqualTo(ReconciliationAction.REPAIRED);
            assertThat(adjusted.report().detail()).contains("short by 3");
        });
        assertThat(ledger(sale, A)).as("nothing available; the total covers what was accepted")
                .isEqualTo(new StockLedger(5, 5, 0));
        assertThat(hot.reserve(request(sale, "dan", line("a", 1)))).isEqualTo(new ReservationOutcome.SoldOut(A));
        assertThat(place(fits)).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(place(tooMany)).as("MySQL has one unit left, not three").isInstanceOf(OrderPlacement.Refused.class);

        ReconciliationReport released = reconciliation.reconcile(sale, A);

        assertThat(released.classification()).isEqualTo(ReconciliationClassification.REDIS_BEHIND);
        assertThat(released.released()).containsExactly(tooMany.id());
        assertThat(ledger(sale, A)).as("cid's reservation is still in flight")
                .isEqualTo(new StockLedger(2, 1, 1));
        assertThat(hot.holdings(sale, buyer("bob"))).isEmpty();
    }

    @Test
    void givenABusySaleWithOrdersAndCancellationsInFlight_whenReconciledOverAndOver_thenNoDriftAndNothingRepaired()
            throws Exception {
        ActivityId sale = sale(item("a", 150), new ActivityItem(B, 60, null, 4));
        AtomicBoolean selling = new AtomicBoolean(true);
        ConcurrentLinkedQueue<ReconciliationReport> seen = new ConcurrentLinkedQueue<>();
        AtomicInteger rounds = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
            Future<?> reconciler = pool.submit(() -> {
                while (selling.get()) {
                    seen.addAll(reconciliation.reconcile(sale).reports());
                    rounds.incrementAndGet();
                }
            });
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 5; w++) {
                int worker = w;
                workers.add(pool.submit(() -> buyAndCancel(sale, worker, 60)));
            }
            for (Future<?> worker : workers) {
                worker.get(3, TimeUnit.MINUTES);
            }
            selling.set(false);
            reconciler.get(1, TimeUnit.MINUTES);
        }
        seen.addAll(reconciliation.reconcile(sale).reports());

        System.out.printf("[busy-sale] %d reconciliation rounds, %d reports, sold %s%n", rounds.get(), seen.size(),
                figures.soldBySku(sale));
        assertThat(rounds.get()).isGreaterThan(3);
        assertThat(seen).allSatisfy(report -> assertThat(report.isClean()).as(report.detail()).isTrue());
        assertThat(metrics.repaired).isEmpty();
        assertThat(reports.findRecent(sale, 10)).isEmpty();
        assertStoresAgree(sale);
    }

    /** One buyer after another: reserve, and now and then cancel before or after the order is placed. */
    private void buyAndCancel(ActivityId sale, int worker, int buyers) {
        for (int b = 0; b < buyers; b++) {
            String name = "w" + worker + "-" + b;
            String sku = b % 3 == 0 ? "b" : "a";
            if (!(hot.reserve(request(sale, name, line(sku, 1 + b % 2))) instanceof ReservationOutcome.Reserved(var r))) {
                continue;
            }
            if (b % 7 == 3) {
                assertThat(cancellations.cancel(buyer(name), r.id())).isInstanceOf(CancellationResult.Cancelled.class);
            }
            pipeline.placeOrder(r);
            if (b % 5 == 1) {
                cancellations.cancel(buyer(name), r.id());
            }
        }
    }

    // ---- helpers ----

    /** Both stores hold the same figures: no reservation left in flight, sold and every buyer's holdings equal. */
    private void assertStoresAgree(ActivityId sale) {
        Map<SkuId, Long> hotSold = new HashMap<>();
        Map<SkuId, Long> hotTotals = new HashMap<>();
        for (SkuStock stock : hot.stock(sale).orElseThrow()) {
            assertThat(stock.ledger().reserved()).as("nothing left reserved in the hot store").isZero();
            hotSold.put(stock.skuId(), stock.ledger().sold());
            hotTotals.put(stock.skuId(), stock.ledger().total());
        }
        Books books = new Books(dataSource);
        Map<SkuId, Long> totals = new HashMap<>();
        books.jdbc().query("SELECT sku_id, stock, sold FROM activity_item WHERE activity_id = ?", row -> {
            totals.put(new SkuId(row.getString("sku_id")), row.getLong("stock"));
            assertThat(row.getLong("sold")).as("never oversold").isLessThanOrEqualTo(row.getLong("stock"));
        }, sale.value());
        assertThat(hotTotals).as("totals").isEqualTo(totals);
        assertThat(hotSold).as("sold").isEqualTo(figures.soldBySku(sale));
        assertThat(figures.orderedUnitsBySku(sale)).isEqualTo(figures.soldBySku(sale));
        Map<String, Long> hotHoldings = new HashMap<>();
        for (String buyer : books.jdbc().queryForList(
                "SELECT DISTINCT buyer_id FROM purchase_order WHERE activity_id = ?", String.class, sale.value())) {
            hot.holdings(sale, buyer(buyer)).forEach((sku, units) -> hotHoldings.put(buyer + " " + sku.value(), units));
        }
        assertThat(hotHoldings).as("each buyer's holdings").isEqualTo(books.purchases(sale));
    }

    private void sellOut(ActivityId sale, SkuId sku) {
        int buyer = 0;
        while (hot.reserve(request(sale, "late-" + buyer++, new ReservationLine(sku, 1)))
                instanceof ReservationOutcome.Reserved(var reservation)) {
            place(reservation);
        }
    }

    private static ReconciliationReport kept(ReconciliationReport report) {
        return new ReconciliationReport(report.activityId(), report.skuId(),
                report.runAt().truncatedTo(ChronoUnit.MILLIS), report.classification(),
                report.action(), report.expected(), report.actual(), report.after(), report.holdingMismatches(),
                report.redriven(), report.confirmed(), report.released(), report.detail());
    }

    private StockLedger ledger(ActivityId sale, SkuId sku) {
        return hot.stock(sale).orElseThrow().stream().filter(stock -> stock.skuId().equals(sku)).findFirst()
                .orElseThrow().ledger();
    }

    private OrderPlacement place(Reservation reservation) {
        return pipeline.placeOrder(reservation);
    }

    private Reservation reserve(ActivityId sale, String buyer, ReservationLine... lines) {
        ReservationOutcome outcome = hot.reserve(request(sale, buyer, lines));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    private ReservationRequest request(ActivityId sale, String buyer, ReservationLine... lines) {
        return new ReservationRequest(ReservationId.of(sale, token().substring(0, 24)), buyer(buyer),
                new RequestId("req-" + token().substring(0, 8)), List.of(lines), clock.instant());
    }

    private static ReserveStockCommand command(ActivityId sale, String buyer, ReservationLine... lines) {
        return new ReserveStockCommand(sale, buyer(buyer), null, List.of(lines));
    }

    private ActivityId sale(ActivityItem... items) {
        ActivityId id = new ActivityId("rflow-" + token().substring(0, 16));
        Activity activity = new Activity(id, "Reconcile " + id, era, era.plus(Duration.ofHours(6)),
                new PurchaseLimit(3), Duration.ofMinutes(10), List.of(items));
        activities.add(activity);
        hot.warmUp(activity);
        return id;
    }

    private static ActivityItem item(String sku, long stock) {
        return new ActivityItem(new SkuId(sku), stock, null, 1);
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    private static BuyerId buyer(String buyer) {
        return new BuyerId(buyer);
    }

    private static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
