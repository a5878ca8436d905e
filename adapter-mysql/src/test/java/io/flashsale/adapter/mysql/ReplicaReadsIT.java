package io.flashsale.adapter.mysql;

import io.flashsale.adapter.mysql.replica.ReplicaRouting;
import io.flashsale.adapter.mysql.replica.ReplicaSettings;
import io.flashsale.adapter.mysql.replica.RoutedReconciliationReports;
import io.flashsale.adapter.mysql.replica.RoutedRecordedStock;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.service.OrderService;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.service.RebuildPorts;
import io.flashsale.application.reconciliation.service.ReconcileService;
import io.flashsale.application.reconciliation.service.ReconciliationSettings;
import io.flashsale.application.reconciliation.service.ReconcilingPorts;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.StockLedger;
import io.flashsale.testsupport.MariaDbReplication;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

import static io.flashsale.adapter.mysql.ReconciliationSales.A;
import static io.flashsale.adapter.mysql.ReconciliationSales.line;
import static io.flashsale.adapter.mysql.ReconciliationSales.token;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads routed to a real MariaDB replica of a real primary (ADR 86): listings and reports from the replica while it is
 * current, from the primary once it falls behind the bound or stops replicating; the figures reconciliation repairs from
 * only from a replica that has every transaction the primary had, so a replica behind (even within the bound) never
 * causes a repair.
 */
@SpringBootTest(classes = {MysqlAdapterTestApplication.class, ReplicaReadsIT.Replica.class})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReplicaReadsIT {

    private static final MariaDbReplication SERVERS = MariaDbReplication.start();
    private static final String DATABASE = "flashsale_replica";
    private static final Duration MAX_LAG = Duration.ofSeconds(2);
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(100);

    static {
        SERVERS.createDatabase(DATABASE);
    }

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        SERVERS.primary().springDatasource(DATABASE).registerIn(registry);
    }

    @Configuration(proxyBeanMethods = false)
    static class Replica {
        @Bean
        ReplicaSettings replicaSettings() {
            return settings(MAX_LAG);
        }
    }

    @Autowired
    RoutedReconciliationReports reports;

    @Autowired
    RoutedRecordedStock recordedStock;

    @Autowired
    MysqlActivityRepository activities;

    @Autowired
    MysqlOrderRepository orders;

    @Autowired
    MysqlRecordedOrders recordedOrders;

    @Autowired
    ReplicaRouting routing;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource primary;

    @AfterEach
    void replicationBackToCurrent() {
        SERVERS.delayApplying(Duration.ZERO);
        SERVERS.awaitCaughtUp(Duration.ofSeconds(20));
        awaitRoute(true);
    }

    @Test
    void givenACurrentReplica_whenReportsAreListed_thenTheReplicaAnswersWhatThePrimaryWrote() {
        ActivityId sale = new ActivityId("rr-" + token().substring(0, 12));
        ReconciliationReport written = report(sale, Instant.parse("2031-01-01T00:00:00.123Z"));
        reports.save(written);
        SERVERS.awaitCaughtUp(Duration.ofSeconds(10));
        awaitRoute(true);

        assertListedFrom("replica", sale, written);
        double replicaFigures = reads("figures", "replica");
        assertThat(recordedStock.recordedSlice(new SaleSlice(sale, 0, SaleSlices.ONE), A, List.of(),
                PurchaseScope.EVERY)).isEmpty();
        assertThat(reads("figures", "replica")).as("a slice's figures from the caught-up replica")
                .isEqualTo(replicaFigures + 1);
        assertThat(meters.get(ReplicaRouting.LAG).gauge().value()).isZero();
        assertThat(meters.get(ReplicaRouting.SERVING).gauge().value()).isOne();
    }

    @Test
    void givenTheReplicaStopsApplying_whenThePrimaryChanges_thenListingsReadThePrimaryUntilItIsBack() {
        ActivityId sale = new ActivityId("rs-" + token().substring(0, 12));
        SERVERS.stopApplying();
        ReconciliationReport written = report(sale, Instant.parse("2031-01-02T00:00:00.456Z"));
        reports.save(written);
        awaitRoute(false);

        assertListedFrom("primary", sale, written);
        assertThat(meters.get(ReplicaRouting.LAG).gauge().value()).as("lag unknown").isNaN();
        assertThat(meters.get(ReplicaRouting.SERVING).gauge().value()).isZero();

        SERVERS.resumeApplying();
        SERVERS.awaitCaughtUp(Duration.ofSeconds(10));
        awaitRoute(true);

        assertListedFrom("replica", sale, written);
        assertThat(meters.get(ReplicaRouting.SERVING).gauge().value()).isOne();
    }

    @Test
    void givenReplicationBroken_thenEveryReadGoesToThePrimary() {
        ActivityId sale = new ActivityId("rb-" + token().substring(0, 12));
        SERVERS.stopReplication();
        ReconciliationReport written = report(sale, Instant.parse("2031-01-03T00:00:00.789Z"));
        reports.save(written);
        awaitRoute(false);

        assertListedFrom("primary", sale, written);
        double primaryFigures = reads("figures", "primary");
        assertThat(recordedStock.recordedSku(sale, A, List.of(), PurchaseScope.EVERY)).isEmpty();
        assertThat(reads("figures", "primary")).isEqualTo(primaryFigures + 1);
        assertThat(recordedStock.recordedSlice(new SaleSlice(sale, 1, new SaleSlices(2)), A, List.of(),
                PurchaseScope.EVERY)).isEmpty();
        assertThat(reads("figures", "primary")).as("a slice's figures too").isEqualTo(primaryFigures + 2);
    }

    @Test
    void givenTheReplicaLagsPastTheBound_thenListingsReadThePrimary() {
        ActivityId sale = new ActivityId("rl-" + token().substring(0, 12));
        SERVERS.delayApplying(Duration.ofSeconds(30));
        ReconciliationReport written = report(sale, Instant.parse("2031-01-04T00:00:00.001Z"));
        reports.save(written);
        // The delayed replica keeps replicating and reports its lag, which grows past the bound within seconds.
        awaitTrue(() -> !routing.replicaInUse() && meters.get(ReplicaRouting.LAG).gauge().value() > MAX_LAG.toSeconds()
                && Double.isFinite(meters.get(ReplicaRouting.LAG).gauge().value()), Duration.ofSeconds(15),
                "a lag over the bound");

        assertListedFrom("primary", sale, written);
    }

    @Test
    void givenManyReadsWithinOneCheckInterval_thenTheReplicasStatusIsReadOnce() throws Exception {
        ReplicaSettings rarely = new ReplicaSettings(settings(MAX_LAG).url(), SERVERS.replica().username(),
                SERVERS.replica().password(), MAX_LAG, Duration.ofHours(1), Duration.ofMillis(300));
        try (ReplicaDatabase replica = ReplicaDatabase.of(rarely)) {
            ReplicaRouting routing = ReplicaRouting.between(primary, replica.dataSource(), rarely,
                    new SimpleMeterRegistry());
            long before = statusReads(replica.dataSource());

            for (int read = 0; read < 50; read++) {
                String answeredBy = routing.read(ReplicaRouting.Reads.LISTING, "primary", "replica", answer -> answer);
                assertThat(answeredBy).isEqualTo("replica");
            }

            assertThat(statusReads(replica.dataSource()) - before).isEqualTo(1);
        }
    }

    @Test
    void givenAReadTheReplicaFails_thenThePrimaryAnswersItAndTheReplicaIsLeftAloneUntilItsNextCheck() {
        // A schema without the reports' table: the replica's status reads well, the read itself fails there.
        ReplicaSettings elsewhere = new ReplicaSettings(SERVERS.replica().existingDatabaseUrl("mysql"),
                SERVERS.replica().username(), SERVERS.replica().password(), MAX_LAG, Duration.ofHours(1),
                Duration.ofMillis(300));
        ActivityId sale = new ActivityId("rf-" + token().substring(0, 12));
        ReconciliationReport written = report(sale, Instant.parse("2031-01-05T00:00:00.002Z"));
        reports.save(written);
        try (ReplicaDatabase replica = ReplicaDatabase.of(elsewhere)) {
            ReplicaRouting failing = ReplicaRouting.between(primary, replica.dataSource(), elsewhere,
                    new SimpleMeterRegistry());
            RoutedReconciliationReports routed = new RoutedReconciliationReports(reports,
                    new MysqlReconciliationReports(replica.mapper(ReconciliationReportDao.class)), failing);
            assertThat(failing.replicaInUse()).as("its status reads well").isTrue();

            assertThat(routed.findRecent(sale, 5)).containsExactly(written);
            assertThat(failing.replicaInUse()).isFalse();
        }
    }

    /**
     * The replica reports a lag within a generous bound but lacks the latest order: listings may show its older view,
     * the figures come from the primary, and reconciliation finds nothing to repair. Reconciled from the replica's
     * figures, the same sale would be "repaired" into selling a unit twice.
     */
    @Test
    void givenAReplicaWithinTheBoundButBehind_whenReconciled_thenFiguresComeFromThePrimaryAndNothingIsRepaired() {
        ReplicaSettings generous = settings(Duration.ofHours(1));
        MeterRegistry ownMeters = new SimpleMeterRegistry();
        try (ReplicaDatabase replica = ReplicaDatabase.of(generous)) {
            ReplicaRouting lenient = ReplicaRouting.between(primary, replica.dataSource(), generous, ownMeters);
            MysqlRecordedStock staleFigures = new MysqlRecordedStock(replica.mapper(ReconciliationFiguresDao.class),
                    new TransactionTemplate(replica.transactions()));
            RecordedStockPort routed = new RoutedRecordedStock(recordedStock, staleFigures, lenient);
            ReconciliationSales sales = new ReconciliationSales(activities, orders);
            Activity sale = sales.sale(5, 5);
            DamageableHotStore hot = new DamageableHotStore();
            hot.warmUp(sale);
            SERVERS.awaitCaughtUp(Duration.ofSeconds(10));
            SERVERS.delayApplying(Duration.ofSeconds(30));

            Reservation sold = reserve(hot, sale.id(), sales.era.plusSeconds(5));
            TestClock clock = new TestClock(sales.era.plusSeconds(6));
            assertThat(new OrderService(orders, orders, orders, hot, hot, NO_PIPELINE_METRICS, clock).placeOrder(sold))
                    .isInstanceOf(OrderPlacement.Placed.class);
            assertThat(hot.stock(sale.id()).orElseThrow().getFirst().ledger()).isEqualTo(new StockLedger(5, 0, 1));
            awaitTrue(lenient::replicaInUse, Duration.ofSeconds(10), "the lag within the generous bound");
            assertThat(staleFigures.recordedSku(sale.id(), A, List.of(), PurchaseScope.EVERY).orElseThrow().sold())
                    .as("the replica lacks the order").isZero();

            ReconciliationReport report = reconciliation(hot, routed, clock).reconcile(sale.id(), A);

            assertThat(report.classification()).isEqualTo(ReconciliationClassification.NONE);
            assertThat(report.action()).isNotEqualTo(ReconciliationAction.REPAIRED);
            assertThat(hot.stock(sale.id()).orElseThrow().getFirst().ledger()).isEqualTo(new StockLedger(5, 0, 1));
            assertThat(ownMeters.get(ReplicaRouting.READS).tag("reads", "figures").tag("target", "primary").counter()
                    .count()).isPositive();
            assertThat(ownMeters.get(ReplicaRouting.READS).tag("reads", "figures").tag("target", "replica").counter()
                    .count()).isZero();

            ReconciliationReport fromTheReplica = reconciliation(hot, staleFigures, clock).reconcile(sale.id(), A);
            assertThat(fromTheReplica.classification()).as("what the stale figures alone would have led to")
                    .isNotEqualTo(ReconciliationClassification.NONE);
        }
    }

    private static final OrderPipelineMetricsPort NO_PIPELINE_METRICS = new OrderPipelineMetricsPort() {
        @Override
        public void recorded(OrderPlacement placement) {
        }

        @Override
        public void relayed(int reservations) {
        }
    };

    private ReconcileService reconciliation(DamageableHotStore hot, RecordedStockPort figures, TestClock clock) {
        RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();
        return new ReconcileService(activities,
                new ReconcilingPorts(hot, hot, RelayedEventsPort.NONE, PipelinePositionPort.NONE, figures,
                recordedOrders, orders, reports, metrics),
                new RebuildPorts(hot, hot, RelayedEventsPort.NONE, RecoveryMarkPort.NONE, PipelinePositionPort.NONE,
                        figures, recordedOrders, metrics),
                clock, new ReconciliationSettings(Duration.ofSeconds(60), 3, Duration.ofSeconds(60)));
    }

    private static Reservation reserve(DamageableHotStore hot, ActivityId sale, Instant at) {
        ReservationOutcome outcome = hot.reserve(new ReservationRequest(ReservationId.of(sale, token().substring(0, 24)),
                new BuyerId("ann"), new RequestId("req-" + token().substring(0, 8)), List.of(line(A, 1)), at));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        return ((ReservationOutcome.Reserved) outcome).reservation();
    }

    private static ReplicaSettings settings(Duration maxLag) {
        return new ReplicaSettings(SERVERS.replica().existingDatabaseUrl(DATABASE), SERVERS.replica().username(),
                SERVERS.replica().password(), maxLag, CHECK_INTERVAL, Duration.ofMillis(300));
    }

    private static ReconciliationReport report(ActivityId sale, Instant at) {
        return new ReconciliationReport(sale, A, at, ReconciliationClassification.REDIS_AHEAD,
                ReconciliationAction.REPAIRED, new LedgerFigures(10, 1, 3, 6), new LedgerFigures(10, 1, 2, 7),
                new LedgerFigures(10, 1, 3, 6), List.of(), List.of(), List.of(), List.of(), "replica");
    }

    /** The report listed, read by {@code target}. */
    private void assertListedFrom(String target, ActivityId sale, ReconciliationReport written) {
        double before = reads("listing", target);
        assertThat(reports.findRecent(sale, 5)).containsExactly(written);
        assertThat(reads("listing", target)).as("listings served by the " + target).isEqualTo(before + 1);
    }

    /** How many times the server was asked for its replication status. */
    private static long statusReads(DataSource server) throws SQLException {
        try (Connection connection = server.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_show_slave_status'")) {
            assertThat(row.next()).isTrue();
            return row.getLong(2);
        }
    }

    private double reads(String reads, String target) {
        return meters.get(ReplicaRouting.READS).tag("reads", reads).tag("target", target).counter().count();
    }

    private void awaitRoute(boolean toReplica) {
        awaitTrue(() -> routing.replicaInUse() == toReplica, Duration.ofSeconds(15),
                toReplica ? "reads back on the replica" : "reads moved to the primary");
    }

    private static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
