package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationOrderListener;
import io.flashsale.adapter.mysql.MysqlSalesFigures;
import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.bootstrap.config.OutageConfiguration;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.TestBuyerTokens;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis down, the sale goes on (ADR 39): the whole service on its OWN redis-server, which the tests start late,
 * SIGKILL and start again empty; Kafka and MariaDB are the shared ones. The service starts while its Redis is down.
 * During the outage MySQL decides reservations (ORDERED at once), payments and cancellations keep working; when Redis
 * is back the ledger is rebuilt from MySQL before the breaker closes and Redis sells what is left. At the end exactly
 * the sale's units are sold, no buyer above the limit, and no request was answered 500. A sale in slices is not decided
 * by the database (ADR 113).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(240)
class RedisOutageIT {

    private static final String ADMIN_TOKEN = "outage-it-admin-token-0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().replace("-", "");
    private static final Duration WITHIN = Duration.ofSeconds(60);
    private static final RedisServerProcess REDIS = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE);

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;
    @Autowired
    MysqlSalesFigures figures;
    @Autowired
    MeterRegistry meters;
    @Autowired
    DataSource database;
    @Autowired
    KafkaListenerEndpointRegistry listeners;

    /** Every status any request of these tests was answered with. */
    private static final Map<Integer, AtomicInteger> STATUSES = new ConcurrentHashMap<>();

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        OwnRedisServiceProperties.register(registry, REDIS.port(), ADMIN_TOKEN, "outage-" + RUN);
        registry.add("flashsale.kafka.retry.initial-interval", () -> "100ms");
        registry.add("flashsale.kafka.retry.max-interval", () -> "400ms");
        registry.add("flashsale.lifecycle.restore-sweep-interval", () -> "300ms");
    }

    @AfterAll
    static void stopRedis() {
        REDIS.close();
    }

    @Test
    @Order(1)
    void theServiceStartsWhileRedisIsDownAndConnectsWhenItComes() {
        // Redis itself is DOWN; the instance stays ready, the database deciding reservations.
        await().atMost(WITHIN).untilAsserted(() -> {
            ServiceClient.Reply readiness = operator().asAdmin("GET", "/actuator/health/readiness", null);
            assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
            assertThat(readiness.json().path("components").path("hotStore").path("details").path("decidedBy")
                    .asString()).isEqualTo("database");
        });
        assertThat(operator().asAdmin("GET", "/actuator/health", null).status()).isEqualTo(503);
        assertThat(breakerState()).isEqualTo(1);

        REDIS.start();

        await().atMost(WITHIN).untilAsserted(() -> {
            ServiceClient.Reply readiness = operator().asAdmin("GET", "/actuator/health/readiness", null);
            assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
            assertThat(readiness.json().path("components").path("hotStore").path("details").path("decidedBy")
                    .asString()).isEqualTo("redis");
        });
        assertThat(operator().asAdmin("GET", "/actuator/health", null).status()).isEqualTo(200);
        String sale = api().openSale(3);
        ServiceClient.Reply reserved = reserve(sale, "early-buyer");
        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        assertThat(reserved.json().path("status").asString()).isEqualTo("RESERVED");
    }

    @Test
    @Order(2)
    void aSaleOfFiftySellsExactlyFiftyAcrossARedisOutage() throws Exception {
        REDIS.start();
        String sale = api().openSale(50);
        ActivityId activity = new ActivityId(sale);
        SkuId sku = new SkuId(ServiceClient.SKU);

        // 10 reserved on Redis, and ordered in MySQL through the pipeline.
        for (int i = 0; i < 10; i++) {
            assertThat(reserve(sale, "redis-buyer-" + i).status()).isEqualTo(202);
        }
        await().atMost(WITHIN).until(() -> ordered(activity) == 10);

        REDIS.kill();

        // Buyers keep buying until the database says sold out; each buyer tries twice (the limit is 1).
        List<String> taken = sellUntilSoldOut(sale, "outage-buyer-", "ORDERED");
        assertThat(taken).hasSize(40);
        assertThat(breakerState()).isEqualTo(1);
        assertThat(figures.soldBySku(activity)).containsEntry(sku, 50L);

        // Payment and cancellation during the outage: the database decides.
        for (int i = 0; i < 3; i++) {
            ServiceClient.Reply paid = api().pay(taken.get(i), buyerOf(taken.get(i)));
            assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        }
        for (int i = 3; i < 8; i++) {
            ServiceClient.Reply cancelled = api().cancel(taken.get(i), buyerOf(taken.get(i)));
            assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        }
        assertThat(figures.soldBySku(activity)).containsEntry(sku, 45L);

        // Redis back, empty: rebuilt from MySQL, then the breaker closes and Redis sells the 5 given back.
        startRedisUntilTheBreakerCloses();
        List<String> afterRecovery = sellUntilSoldOut(sale, "after-buyer-", "RESERVED");
        assertThat(afterRecovery).hasSize(5);

        await().atMost(WITHIN).until(() -> ordered(activity) == 50);
        assertThat(figures.soldBySku(activity)).containsEntry(sku, 50L);
        assertThat(figures.orderCountByStatus(activity))
                .containsEntry(ReservationStatus.CANCELLED, 5L)
                .doesNotContainKey(ReservationStatus.FAILED);
        assertThat(new JdbcTemplate(database).queryForObject(
                "SELECT COALESCE(MAX(quantity), 0) FROM buyer_purchase WHERE activity_id = ?", Long.class, sale))
                .isEqualTo(1L);
        assertThat(STATUSES).doesNotContainKey(500);
    }

    @Test
    @Order(3)
    void reservationsInFlightInKafkaWhenRedisDiesBecomeOrdersAndTheSaleStillSellsExactlyItsStock() throws Exception {
        startRedisUntilTheBreakerCloses();
        String sale = api().openSale(30);
        ActivityId activity = new ActivityId(sale);
        MessageListenerContainer consumer = listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID);
        double relayedBefore = meters.get(MicrometerOrderPipelineMetrics.RELAYED).counter().count();
        consumer.pause();
        List<String> inFlight = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                ServiceClient.Reply reply = reserve(sale, "in-flight-buyer-" + i + "-" + RUN.substring(0, 6));
                assertThat(reply.status()).as(reply.body()).isEqualTo(202);
                inFlight.add(reply.json().path("reservationId").asString());
            }
            // Relayed to Kafka, not yet ordered: then Redis dies.
            await().atMost(WITHIN).until(() ->
                    meters.get(MicrometerOrderPipelineMetrics.RELAYED).counter().count() >= relayedBefore + 10);
            assertThat(ordered(activity)).isZero();
            killRedisUntilTheBreakerOpens(sale);
        } finally {
            consumer.resume();
        }

        // The pipeline places the 10 in the database while Redis is out; the crowd buys the rest there.
        await().atMost(WITHIN).until(() -> inFlight.stream().allMatch(id ->
                "ORDERED".equals(reservationStatus(id))));
        List<String> onTheDatabase = sellUntilSoldOut(sale, "crowd-buyer-", "ORDERED");

        startRedisUntilTheBreakerCloses();
        ServiceClient.Reply afterwards = count(reserve(sale, "late-buyer-" + RUN));
        assertThat(afterwards.status()).as(afterwards.body()).isEqualTo(409);
        assertThat(afterwards.json().path("code").asString()).isEqualTo("SOLD_OUT");

        assertThat(figures.soldBySku(activity)).containsEntry(new SkuId(ServiceClient.SKU), 30L);
        assertThat(figures.orderCountByStatus(activity)).isEqualTo(Map.of(ReservationStatus.ORDERED, 30L));
        assertThat(onTheDatabase.size() + inFlight.size()).isLessThanOrEqualTo(30);
        assertThat(STATUSES).doesNotContainKey(500);
    }

    /**
     * ADR 113: the database path does not decide a sale in slices. While Redis is out its buyers are answered 503
     * DEGRADED and MySQL sells nothing of it; Redis back (empty: every slice lost and rebuilt), the slices sell exactly
     * what is left, and every accepted reservation is an order.
     */
    @Test
    @Order(4)
    void aSaleInSlicesIsAnsweredDegradedWhileRedisIsOutAndItsSlicesSellExactlyTheRestAfter() throws Exception {
        startRedisUntilTheBreakerCloses();
        String sale = api().openSaleInSlices(30, 3);
        ActivityId activity = new ActivityId(sale);
        SkuId sku = new SkuId(ServiceClient.SKU);
        for (int i = 0; i < 6; i++) {
            ServiceClient.Reply reserved = reserve(sale, "sliced-redis-buyer-" + i + "-" + RUN.substring(0, 6));
            assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        }
        await().atMost(WITHIN).until(() -> ordered(activity) == 6);

        killRedisUntilTheBreakerOpens(sale);
        for (int i = 0; i < 5; i++) {
            ServiceClient.Reply refused = reserve(sale, "sliced-outage-buyer-" + i + "-" + RUN.substring(0, 6));
            assertThat(refused.status()).as(refused.body()).isEqualTo(503);
            assertThat(refused.json().path("code").asString()).as(refused.body()).isEqualTo("DEGRADED");
        }
        assertThat(figures.soldBySku(activity)).as("sold by the database path").containsEntry(sku, 6L);

        startRedisUntilTheBreakerCloses();
        List<String> afterRecovery = sellUntilSoldOut(sale, "sliced-after-buyer-", "RESERVED");
        assertThat(afterRecovery).hasSize(24);

        await().atMost(WITHIN).until(() -> ordered(activity) == 30);
        assertThat(figures.soldBySku(activity)).containsEntry(sku, 30L);
        assertThat(figures.orderCountByStatus(activity)).isEqualTo(Map.of(ReservationStatus.ORDERED, 30L));
        assertThat(STATUSES).doesNotContainKey(500);
    }

    /**
     * While the breaker is open the service does not ask Redis, so a reservation Redis accepted that the database has
     * not placed yet cannot be ruled out: its read, payment and cancellation are answered 503 DEGRADED ("try again"),
     * never 404 (a buyer or a payment provider told "not found" gives up on a reservation that may stand). An id
     * neither store holds is one such. Once Redis is back the same asks answer 404.
     */
    @Test
    @Order(5)
    void anIdOnlyRedisCouldHoldIsAnsweredDegradedWhileRedisIsOutAndNotFoundOnceItIsBack() {
        await().atMost(WITHIN).until(() -> breakerState() == 0);
        String sale = api().openSale(50);
        String unknown = ReservationId.of(new ActivityId(sale), "nevermade" + RUN.substring(0, 6)).value();
        String buyer = "reader-" + RUN.substring(0, 6);

        killRedisUntilTheBreakerOpens(sale);
        for (ServiceClient.Reply reply : asksOf(unknown, buyer)) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(503);
            assertThat(reply.json().path("code").asString()).as(reply.body()).isEqualTo("DEGRADED");
        }

        startRedisUntilTheBreakerCloses();
        for (ServiceClient.Reply reply : asksOf(unknown, buyer)) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(404);
            assertThat(reply.json().path("code").asString()).as(reply.body()).isEqualTo("RESERVATION_NOT_FOUND");
        }
        assertThat(STATUSES).doesNotContainKey(500);
    }

    /** Kills Redis and keeps a buyer asking for the sale until this instance's breaker has opened. */
    private void killRedisUntilTheBreakerOpens(String sale) {
        REDIS.kill();
        await().atMost(WITHIN).until(() -> {
            count(reserve(sale, "probe-" + UUID.randomUUID()));
            return breakerState() == 1;
        });
    }

    private void startRedisUntilTheBreakerCloses() {
        REDIS.start();
        await().atMost(WITHIN).until(() -> breakerState() == 0);
    }

    /** The buyer's read, payment and cancellation of the reservation, each counted. */
    private List<ServiceClient.Reply> asksOf(String reservationId, String buyer) {
        return List.of(count(api().send("GET", "/api/v1/reservations/" + reservationId, null, "Authorization",
                        TestBuyerTokens.bearerOf(buyer))),
                count(api().pay(reservationId, buyer)), count(api().cancel(reservationId, buyer)));
    }

    private String reservationStatus(String reservationId) {
        return new JdbcTemplate(database).query("SELECT status FROM purchase_order WHERE reservation_id = ?",
                rs -> rs.next() ? rs.getString(1) : null, reservationId);
    }

    /**
     * Fresh buyers, 4 at a time, each trying twice, until a reply says SOLD_OUT; 503 DEGRADED answers are tried again.
     * Returns the accepted reservations; each must carry {@code status}.
     */
    private List<String> sellUntilSoldOut(String sale, String buyerPrefix, String status) throws Exception {
        List<String> accepted = new CopyOnWriteArrayList<>();
        AtomicInteger next = new AtomicInteger();
        long deadline = System.nanoTime() + WITHIN.toNanos();
        boolean soldOut = false;
        while (!soldOut) {
            assertThat(System.nanoTime()).as("sold out in time").isLessThan(deadline);
            List<String> buyers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                buyers.add(buyerPrefix + next.incrementAndGet() + "-" + RUN.substring(0, 6));
            }
            var replies = buyers.stream()
                    .map(buyer -> api().reserveAsync(sale, buyer).thenApply(reply -> Map.entry(buyer, reply)))
                    .toList();
            for (var future : replies) {
                var entry = future.get();
                ServiceClient.Reply reply = count(entry.getValue());
                if (reply.status() == 202) {
                    assertThat(reply.json().path("status").asString()).as(reply.body()).isEqualTo(status);
                    accepted.add(reply.json().path("reservationId").asString());
                    BUYERS.put(reply.json().path("reservationId").asString(), entry.getKey());
                    ServiceClient.Reply again = count(reserve(sale, entry.getKey()));
                    assertThat(again.status()).as(again.body()).isIn(409, 503);
                } else if (reply.status() == 409) {
                    assertThat(reply.json().path("code").asString()).as(reply.body()).isEqualTo("SOLD_OUT");
                    soldOut = true;
                } else {
                    assertThat(reply.status()).as(reply.body()).isEqualTo(503);
                    // TRY_AGAIN: a sale in slices whose buyer's home slice waits for a transfer (ADR 109).
                    assertThat(reply.json().path("code").asString()).isIn("DEGRADED", "NOT_READY", "TRY_AGAIN");
                    Thread.sleep(50);
                }
            }
        }
        return accepted;
    }

    private static final Map<String, String> BUYERS = new ConcurrentHashMap<>();

    private static String buyerOf(String reservationId) {
        return BUYERS.get(reservationId);
    }

    private ServiceClient.Reply reserve(String sale, String buyer) {
        return count(api().reserveAsync(sale, buyer).join());
    }

    private static ServiceClient.Reply count(ServiceClient.Reply reply) {
        STATUSES.computeIfAbsent(reply.status(), status -> new AtomicInteger()).incrementAndGet();
        return reply;
    }

    private long ordered(ActivityId activity) {
        Map<ReservationStatus, Long> byStatus = figures.orderCountByStatus(activity);
        return byStatus.getOrDefault(ReservationStatus.ORDERED, 0L) + byStatus.getOrDefault(ReservationStatus.PAID, 0L);
    }

    private int breakerState() {
        return (int) meters.get(OutageConfiguration.BREAKER_STATE).gauge().value();
    }

    /** The actuator's port, with the admin token: readiness details are for operators. */
    private ServiceClient operator() {
        return new ServiceClient(managementPort, ADMIN_TOKEN);
    }

    private ServiceClient api() {
        return new ServiceClient(port, ADMIN_TOKEN);
    }
}
