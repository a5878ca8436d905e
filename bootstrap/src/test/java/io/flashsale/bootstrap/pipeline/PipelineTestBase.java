package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.adapter.mysql.MysqlSalesFigures;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.RedisRequestIndex;
import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.adapter.scheduling.OutboxRelayLoop;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.testsupport.MariaDbEndpoint;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.GroupState;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import javax.sql.DataSource;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The whole service on real Redis, Kafka and MariaDB, with the order pipeline running: every pipeline test class
 * shares this one context. The database is reached through a {@link TcpProxy} that tests may cut; relays take
 * over entries pending for 500 ms; a failing event is tried 4 times within about a second before it is
 * dead-lettered, unless the database (or Redis) is out of reach: then the consumer waits for it (ADR 78). Topic, consumer group and outbox registry are this JVM's own, so other runs never see them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import({CrashHooksConfiguration.class, OutboxAgeClockConfiguration.class})
abstract class PipelineTestBase {

    static final String ADMIN_TOKEN = "pipeline-it-admin-token-0123456789abcdef";
    /** A second operator's own token: stock adjustments need two (ADR 84). */
    static final String PETER_TOKEN = "pipeline-it-peter-token-0123456789abcdef";
    /** What the payment provider signs its notifications with here. */
    static final String NOTIFICATION_SECRET = "pipeline-it-notification-secret";
    static final String RUN = UUID.randomUUID().toString().replace("-", "");
    /** The longest this context's order consumer holds a batch back for a busy machine's buyers. */
    static final Duration GIVE_WAY_MAX_WAIT = Duration.ofSeconds(5);
    static final String TOPIC = "flashsale-it-pipeline-" + RUN;
    static final String GROUP = "flashsale-it-pipeline-" + RUN;
    static final Duration STALE_AFTER = Duration.ofMillis(500);
    static final Duration WITHIN = Duration.ofSeconds(30);
    static final Duration RECONCILIATION_GRACE = Duration.ofSeconds(2);
    static final String SKU = ServiceClient.SKU;
    /** Of the reservations topic, as {@code flashsale.kafka.partitions} defaults. */
    static final int PARTITIONS = 3;

    private static TcpProxy databaseProxy;

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;
    @Autowired
    MysqlSalesFigures figures;
    @Autowired
    OrderLookupPort orders;
    @Autowired
    StockReservationPort stock;
    @Autowired
    HeldReservationsPort heldReservations;
    @Autowired
    ReservationTransitionsPort reservationMoves;
    @Autowired
    ReservationOutboxPort outbox;
    @Autowired
    ReservationEventPublisherPort publisher;
    @Autowired
    OutboxRelayLoop relayLoop;
    @Autowired
    CrashingPlaceOrder crashes;
    @Autowired
    MeterRegistry meters;
    @Autowired
    DataSource database;
    @Autowired
    KafkaListenerEndpointRegistry listeners;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        RedisEndpoint redis = TestServices.redis();
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        PipelineDatabase.datasourceThrough(databaseProxy().port()).registerIn(registry);
        // A cut database fails a delivery within a second instead of Hikari's default 30.
        registry.add("spring.datasource.hikari.connection-timeout", () -> "1000");
        registry.add("spring.datasource.hikari.validation-timeout", () -> "500");
        registry.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        registry.add("flashsale.admin.operators[0].name", () -> "peter");
        registry.add("flashsale.admin.operators[0].token", () -> PETER_TOKEN);
        registry.add("spring.kafka.bootstrap-servers", () -> TestServices.kafka().bootstrapServers());
        registry.add("flashsale.kafka.topic", () -> TOPIC);
        registry.add("flashsale.kafka.consumer.group-id", () -> GROUP);
        registry.add("flashsale.kafka.publish-timeout", () -> "5s");
        registry.add("flashsale.kafka.retry.initial-interval", () -> "100ms");
        registry.add("flashsale.kafka.retry.max-interval", () -> "400ms");
        registry.add("flashsale.kafka.retry.max-attempts", () -> "4");
        // While the database is out the consumer holds its partitions and asks it twice a second (ADR 78).
        registry.add("flashsale.kafka.retry.probe-interval", () -> "500ms");
        // Dead-lettered reservations past their payment deadline are given back within moments (ADR 78).
        registry.add("flashsale.lifecycle.dead-letter-release-interval", () -> "300ms");
        registry.add("flashsale.kafka.dead-letters.timeout", () -> "5s");
        registry.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-pipeline-" + RUN);
        registry.add("flashsale.relay.stale-after", STALE_AFTER::toString);
        // Unpaid orders expire within moments of their deadline; restores Redis could not take are retried soon.
        registry.add("flashsale.lifecycle.expiry-interval", () -> "200ms");
        registry.add("flashsale.lifecycle.restore-sweep-interval", () -> "300ms");
        // Off: sales are warmed up and archived by the tests. Another context on this database (EmbeddedBrokerIT)
        // must not find its sales registered with this context's relay.
        registry.add("flashsale.warm-up.schedule-enabled", () -> "false");
        registry.add("flashsale.archive.schedule-enabled", () -> "false");
        // Reconciled by the tests; a lost move counts as lost after 2 s, so drift tests need not wait a minute.
        registry.add("flashsale.reconciliation.schedule-enabled", () -> "false");
        registry.add("flashsale.reconciliation.grace", RECONCILIATION_GRACE::toString);
        registry.add("flashsale.payment.notification-secret", () -> NOTIFICATION_SECRET);
        // The lifecycle tests pay as the buyer; PaymentNotificationIT pays as the provider.
        registry.add("flashsale.payment.buyer-confirms", () -> "true");
        // A busy machine's buyers hold the consumer's batches back 5 s at most, not 30 (ADR 65): outages that must
        // meet the consumer (DatabaseOutageIT) need only outlast that.
        registry.add("flashsale.orders.give-way.max-wait", () -> GIVE_WAY_MAX_WAIT.toSeconds() + "s");
    }

    static synchronized TcpProxy databaseProxy() {
        if (databaseProxy == null) {
            MariaDbEndpoint mariadb = TestServices.mariadb();
            databaseProxy = TcpProxy.to(mariadb.host(), mariadb.port());
        }
        return databaseProxy;
    }

    // ---- the sale in test words ----

    /** The actuator's port, with the admin token. */
    ServiceClient operator() {
        return new ServiceClient(managementPort, ADMIN_TOKEN);
    }

    ServiceClient api() {
        return new ServiceClient(port, ADMIN_TOKEN);
    }

    ServiceClient.Reply send(String method, String path, String body, String... headers) {
        return api().send(method, path, body, headers);
    }

    ServiceClient.Reply asAdmin(String method, String path, String body) {
        return api().asAdmin(method, path, body);
    }

    String openSale(long units) {
        return api().openSale(units);
    }

    CompletableFuture<ServiceClient.Reply> reserveAsync(String activityId, String buyer) {
        return api().reserveAsync(activityId, buyer);
    }

    JsonNode reservation(String reservationId, String buyer) {
        return api().reservation(reservationId, buyer);
    }

    static String buyer(int i) {
        return "buyer-" + i;
    }

    /** One unit for each of {@code buyers} buyers, one after the other; returns reservation id -> buyer of the accepted. */
    Map<String, String> reserveOneEach(String activityId, int buyers) {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int i = 0; i < buyers; i++) {
            ServiceClient.Reply reply = reserveAsync(activityId, buyer(i)).join();
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            accepted.put(reply.json().path("reservationId").asString(), buyer(i));
        }
        return accepted;
    }

    /** A reservation of the sale is refused for now: 503 NOT_READY (a sale not loaded, or waiting for its rebuild). */
    void assertNotReady(String activityId) {
        ServiceClient.Reply refused = reserveAsync(activityId, "buyer-late").join();
        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.json().path("code").asString()).isEqualTo("NOT_READY");
    }

    /**
     * Waits until the relay has handed each reservation to Kafka: its record in Redis holds the broker position, or it
     * is an order already (no record, its request entry naming it: ADR 71).
     */
    static void awaitRelayed(RedisCommands<String, String> redis, ActivityId activity,
                             Map<String, String> reservations) {
        await().atMost(WITHIN).untilAsserted(() -> reservations.keySet().forEach(reservation ->
                assertRelayed(redis, activity, reservation)));
    }

    static void assertRelayed(RedisCommands<String, String> redis, ActivityId activity, String reservation) {
        ReservationRecord record = record(redis, activity, reservation);
        if (record == null) {
            assertThat(requested(redis, activity)).as(reservation + " settled").contains(reservation);
        } else {
            assertThat(record.position()).as(reservation).isNotNull();
        }
    }

    /** The reservation ids the sale's request index names (ADR 71: it outlives the records). */
    static Set<String> requested(RedisCommands<String, String> redis, ActivityId activity) {
        Set<String> ids = new HashSet<>();
        RedisRequestIndex.entries(redis, activity).forEach((field, value) -> ids.add(RedisKeys.requestedReservation(
                activity, new RequestId(field.substring(field.indexOf(':') + 1)), value).value()));
        return ids;
    }

    /** The reservation's record in Redis, null when Redis holds none (an order keeps none: ADR 71). */
    static ReservationRecord record(RedisCommands<String, String> redis, ActivityId activity, String reservation) {
        return ReservationRecord.read(redis.hget(RedisKeys.reservations(activity), reservation)).orElse(null);
    }

    /**
     * Writes the reservation's record back with {@code status}, as a lost update would have left it. An order keeps no
     * record in Redis (ADR 71): its record is then the one the reserve script wrote, from the order in MySQL.
     */
    void rewriteStatus(RedisCommands<String, String> redis, ActivityId activity, String reservation,
                       ReservationStatus status) {
        ReservationRecord record = record(redis, activity, reservation);
        ReservationRecord written = record != null ? record
                : ReservationRecord.of(orders.find(new ReservationId(reservation)).orElseThrow().toReservation());
        redis.hset(RedisKeys.reservations(activity), reservation, written.withStatus(status).encode());
    }

    /** All {@code buyers} at the same moment; returns reservation id -> buyer of the accepted ones. */
    Map<String, String> race(String activityId, int buyers) {
        List<CompletableFuture<ServiceClient.Reply>> attempts = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            attempts.add(reserveAsync(activityId, buyer(i)));
        }
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int i = 0; i < buyers; i++) {
            ServiceClient.Reply reply = attempts.get(i).join();
            assertThat(reply.status()).as(reply.body()).isIn(202, 409);
            if (reply.status() == 202) {
                accepted.put(reply.json().path("reservationId").asString(), buyer(i));
            }
        }
        return accepted;
    }

    /**
     * Partitions of the reservations topic this instance's consumers own. An earlier test's second instance in the same
     * group (SoldOutAcrossInstancesIT) may hold some until the group has rebalanced.
     */
    int assignedPartitions() {
        return listeners.getListenerContainers().stream()
                .mapToInt(container -> (int) container.getAssignedPartitions().stream()
                        .filter(assigned -> TOPIC.equals(assigned.topic())).count())
                .sum();
    }

    /**
     * Whether the broker sees this run's consumer group settled with this instance's consumers alone: no rebalance
     * under way and no member left by an earlier test's second instance, so no partition moves while a test holds it.
     */
    boolean groupSettledOnThisInstance() {
        int mine = listeners.getListenerContainers().stream()
                .filter(container -> GROUP.equals(container.getGroupId()))
                .mapToInt(container -> container.metrics().size())
                .sum();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                TestServices.kafka().bootstrapServers(), AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000))) {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).describedGroups().get(GROUP)
                    .get(10, TimeUnit.SECONDS);
            return group.groupState() == GroupState.STABLE && group.members().size() == mine;
        } catch (ExecutionException | TimeoutException unanswered) {
            return false;
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The reconciliation of a whole sale, on demand, as an operator asks for it. */
    JsonNode reconcile(String activityId) {
        ServiceClient.Reply reply = asAdmin("POST", "/api/v1/activities/" + activityId + "/reconciliation", null);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    /** The one SKU's report of a reconciliation of a one-SKU sale. */
    static JsonNode singleReport(JsonNode reconciliation) {
        assertThat(reconciliation.path("reports").size()).as(reconciliation.toString()).isEqualTo(1);
        return reconciliation.path("reports").get(0);
    }

    /** RESTORE rows of the stock flow for one reservation: 1 at most, for it is unique per reservation, SKU and kind. */
    long restoreRows(String reservationId) {
        return new JdbcTemplate(database).queryForObject(
                "SELECT COUNT(*) FROM stock_flow WHERE reservation_id = ? AND kind = 'RESTORE'", Long.class, reservationId);
    }

    SkuStock redisLedger(String activityId) {
        return stock.stock(new ActivityId(activityId)).orElseThrow().getFirst();
    }

    double orders(String outcome) {
        return meters.counter(MicrometerOrderPipelineMetrics.ORDERS, MicrometerOrderPipelineMetrics.OUTCOME, outcome)
                .count();
    }

    // ---- sales in slices (ADR 109) ----

    /** A sale of {@code units} units of one SKU, {@code limit} per buyer, in {@code slices} slices, warmed up. */
    String slicedSale(long units, int limit, int slices) {
        String id = "it-" + UUID.randomUUID().toString().replace("-", "");
        Instant now = Instant.now();
        String body = "{\"id\":\"" + id + "\",\"name\":\"Sliced sale\",\"startsAt\":\"" + now.minusSeconds(60)
                + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\",\"perUserLimit\":" + limit + ",\"slices\":" + slices
                + ",\"items\":[{\"skuId\":\"" + SKU + "\",\"stock\":" + units + "}]}";
        ServiceClient.Reply created = asAdmin("POST", "/api/v1/activities", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        api().warmUp(id);
        return id;
    }

    /** The jobs that move stock between slices: the transfer sweep and the rebalancer. */
    private static final List<String> TRANSFER_JOBS = List.of("transfer-sweep", "slice-rebalance");

    /**
     * Holds off the jobs that move stock between slices (their job locks taken in {@code by}'s name), so only the test
     * moves stock; a pass that took its lock before ends within milliseconds.
     */
    void holdOffTransferJobs(String by) throws InterruptedException {
        JdbcTemplate jdbc = new JdbcTemplate(database);
        for (String job : TRANSFER_JOBS) {
            jdbc.update("INSERT INTO job_lock (name, lock_until, locked_at, locked_by) VALUES (?, UTC_TIMESTAMP(3)"
                    + " + INTERVAL 10 MINUTE, UTC_TIMESTAMP(3), ?) ON DUPLICATE KEY UPDATE"
                    + " lock_until = VALUES(lock_until), locked_by = VALUES(locked_by)", job, by);
        }
        Thread.sleep(500);
    }

    /** Gives the jobs {@link #holdOffTransferJobs} held off back. */
    void releaseTransferJobs(String by) {
        for (String job : TRANSFER_JOBS) {
            new JdbcTemplate(database).update("UPDATE job_lock SET lock_until = UTC_TIMESTAMP(3) WHERE name = ?"
                    + " AND locked_by = ?", job, by);
        }
    }

    /** {@code count} buyers whose home is slice {@code k} of {@code slices}, skipping the first {@code skip} of them. */
    static List<String> buyersHomedIn(int slices, int k, int count, int skip) {
        SaleSlices of = new SaleSlices(slices);
        return IntStream.iterate(0, i -> i + 1).mapToObj(PipelineTestBase::buyer)
                .filter(buyer -> of.homeOf(new BuyerId(buyer)) == k).skip(skip).limit(count).toList();
    }

    /** One attempt of {@code quantity} units of the sale's SKU, keyed by {@code requestId}. */
    ServiceClient.Reply reserve(String activityId, String buyer, String requestId, int quantity) {
        String body = "{\"requestId\":\"" + requestId + "\",\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":"
                + quantity + "}]}";
        return send("POST", "/api/v1/activities/" + activityId + "/reservations", body, "Authorization",
                bearerOf(buyer));
    }

    /** One unit for each buyer, each accepted at once; returns reservation id -> buyer. */
    Map<String, String> buyOneEach(String activityId, List<String> buyers) {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (String buyer : buyers) {
            ServiceClient.Reply answer = reserve(activityId, buyer, "k0", 1);
            assertThat(answer.status()).as(answer.body()).isEqualTo(202);
            accepted.put(answer.json().path("reservationId").asString(), buyer);
        }
        return accepted;
    }

    /** A stock adjustment proposed by "admin" and approved by "peter" (ADR 84): the approval's answer. */
    ServiceClient.Reply adjustStock(String activityId, long delta, String reason) {
        String adjustments = "/api/v1/activities/" + activityId + "/stock-adjustments";
        ServiceClient.Reply proposed = asAdmin("POST", adjustments,
                "{\"skuId\":\"" + SKU + "\",\"delta\":" + delta + ",\"reason\":\"" + reason + "\"}");
        assertThat(proposed.status()).as(proposed.body()).isEqualTo(202);
        return new ServiceClient(port, PETER_TOKEN).asAdmin("POST",
                adjustments + "/proposals/" + proposed.json().path("id").asLong() + "/approval", null);
    }

    /** The buyer's attempt, sent again after the wait it names while units are on their way (503 TRY_AGAIN). */
    ServiceClient.Reply reserveUntilDecided(String activityId, String buyer, String requestId)
            throws InterruptedException {
        String body = "{\"requestId\":\"" + requestId + "\",\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}";
        for (int tries = 1; ; tries++) {
            ServiceClient.Reply answer = send("POST", "/api/v1/activities/" + activityId + "/reservations", body,
                    "Authorization", bearerOf(buyer));
            if (answer.status() != 503 || tries == 50) {
                return answer;
            }
            assertThat(answer.json().path("code").asString()).as(answer.body()).isEqualTo("TRY_AGAIN");
            Thread.sleep(answer.json().path("retryAfterMillis").asLong());
        }
    }

    // ---- the invariant every crash test ends with ----

    void awaitExactlyOneOrderEach(String activityId, long units, Map<String, String> accepted) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertExactlyOneOrderEach(activityId, units, accepted));
    }

    /**
     * Every accepted reservation is exactly one ORDERED order and reports so; no order exists without a
     * reservation; MySQL sold = stock flow = ordered units = accepted, within the stock; Redis agrees.
     */
    void assertExactlyOneOrderEach(String activityId, long units, Map<String, String> accepted) {
        ActivityId activity = new ActivityId(activityId);
        SkuId sku = new SkuId(SKU);
        long expected = accepted.size();
        assertThat(figures.orderCountByStatus(activity)).as("orders by status")
                .containsExactly(entry(ReservationStatus.ORDERED, expected));
        for (String reservationId : accepted.keySet()) {
            Order order = orders.find(new ReservationId(reservationId)).orElseThrow(
                    () -> new AssertionError("no order for accepted reservation " + reservationId));
            assertThat(order.status()).as(reservationId).isEqualTo(ReservationStatus.ORDERED);
        }
        assertThat(figures.soldBySku(activity)).as("MySQL sold").containsExactly(entry(sku, expected));
        assertThat(expected).as("nothing oversold").isLessThanOrEqualTo(units);
        assertThat(figures.stockFlowBySku(activity)).as("stock flow").containsExactly(entry(sku, expected));
        assertThat(figures.orderedUnitsBySku(activity)).as("ordered units").containsExactly(entry(sku, expected));
        SkuStock redis = redisLedger(activityId);
        assertThat(redis.ledger().total()).as("Redis total").isEqualTo(units);
        assertThat(redis.ledger().reserved()).as("Redis reserved").isZero();
        assertThat(redis.ledger().sold()).as("Redis sold").isEqualTo(expected);
        accepted.forEach((reservationId, buyer) -> {
            JsonNode read = reservation(reservationId, buyer);
            assertThat(read.path("status").asString()).as(reservationId).isEqualTo("ORDERED");
            assertThat(read.path("orderId").asString()).as(reservationId).isEqualTo(reservationId);
        });
    }
}
