package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.metrics.LostReservationReports;
import io.flashsale.adapter.mysql.MysqlSalesFigures;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.RedisRequestIndex;
import io.flashsale.application.reconciliation.port.out.LostReservationReport;
import io.flashsale.application.reconciliation.service.LostReservationAudit;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.bootstrap.config.OutageConfiguration;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.stock.StockLedger;
import io.flashsale.testsupport.RedisServerProcess.Persistence;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.ServiceProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The three Redis durability modes (ADR 0038 and 0047), with the whole service on its own redis-server:
 * buyers reserve over HTTP, the server is SIGKILLed under that load, and what it kept is read by a second server of
 * the test's own on the same data directory. Then the service's Redis is started again on that directory and the test
 * shows that every acknowledged reservation Redis lost is either repaired from MySQL (it reached the database through
 * the pipeline: the rebuild or reconciliation puts its units and its buyer's holding back in Redis, and Redis agrees
 * with MySQL) or reported by the audit and counted in {@value LostReservationReports#AUDITED}{result=lost}, with no
 * order anywhere. Each mode prints one {@code durability mode=...} line: acknowledged, lost by Redis, the loss window,
 * how long Redis took to load and how long until the service sold on Redis again.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(300)
class DurabilityModesIT {

    enum Mode {
        NONE(Persistence.NONE),
        AOF_EVERYSEC(Persistence.AOF_EVERYSEC),
        AOF_ALWAYS(Persistence.AOF_ALWAYS);

        final Persistence persistence;

        Mode(Persistence persistence) {
            this.persistence = persistence;
        }

        /** A server of this mode on {@code dir}: the service's (on its one port) or the test's reader. */
        RedisServerProcess serverOn(int port, Path dir) {
            return RedisServerProcess.onPortIn(port, dir, persistence, "--appendfilename", "flashsale.aof");
        }
    }

    private static final String ADMIN_TOKEN = "durability-it-admin-token-0123456789abcdef";
    private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private static final Duration WITHIN = Duration.ofSeconds(90);
    private static final Duration LOAD = Duration.ofMillis(1500);
    private static final int BUYERS = 4;
    /** The service's Redis port; each mode starts its own server on it. */
    private static final int REDIS_PORT = ServiceProcess.freePort();
    private static RedisServerProcess redisServer;

    @LocalServerPort
    int port;
    @Autowired
    RedisHotStore redis;
    @Autowired
    LostReservationAudit audit;
    @Autowired
    SettledReservationsPort settled;
    @Autowired
    @Qualifier("stockReservationPort")
    StockReservationPort redisStore;
    @Autowired
    MysqlSalesFigures figures;
    @Autowired
    MeterRegistry meters;

    private record Acknowledged(ReservationId id, String buyer, long atNanos) {
    }

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        OwnRedisServiceProperties.register(registry, REDIS_PORT, ADMIN_TOKEN, "durability-" + RUN);
        registry.add("flashsale.durability-audit.interval", () -> "200ms");
        // The check after each restart reconciles until Redis agrees with MySQL: with the default grace (60 s) a
        // reservation made just before the kill is not judged for a minute, and the test would wait that long.
        registry.add("flashsale.reconciliation.grace", () -> "2s");
        // Every buyer is fresh; the limiter is another test's subject.
        registry.add("flashsale.rate-limit.buyer.enabled", () -> "false");
    }

    @AfterAll
    static void stopRedis() {
        if (redisServer != null) {
            redisServer.close();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void aSigkillLosesWhatTheModeAllowsAndEveryLossIsRepairedFromMysqlOrReported(Mode mode) throws Exception {
        Path dir = Files.createTempDirectory("flashsale-durability-" + mode.name().toLowerCase() + "-");
        redisServer = mode.serverOn(REDIS_PORT, dir);
        try {
            redisServer.start();
            String first = incarnationOnceConnected();
            // The service on Redis, and any audit of an earlier mode's restart finished.
            await().atMost(WITHIN).until(() -> breakerState() == 0 && first.equals(audit.incarnationSeen())
                    && !audit.auditPending());
            String sale = api().openSale(10_000_000);
            ActivityId activity = new ActivityId(sale);

            var acknowledged = new ConcurrentLinkedQueue<Acknowledged>();
            long killedAt = loadAndKill(sale, acknowledged);
            List<Acknowledged> lostByRedis = keptAfterTheKill(dir, mode, acknowledged);
            long lossWindowMs = lostByRedis.stream().mapToLong(Acknowledged::atNanos).min()
                    .stream().map(oldest -> Duration.ofNanos(killedAt - oldest).toMillis()).findFirst().orElse(0);
            double lostBefore = lostCounter();

            long restartFrom = System.nanoTime();
            redisServer.start();
            long loadedMs = Duration.ofNanos(System.nanoTime() - restartFrom).toMillis();
            String restarted = incarnationOnceConnected();
            await().atMost(WITHIN).until(() -> breakerState() == 0
                    && reserve(sale, "after-" + UUID.randomUUID()).status() == 202);
            long sellingOnRedisMs = Duration.ofNanos(System.nanoTime() - restartFrom).toMillis();
            await().atMost(WITHIN).until(() -> restarted.equals(audit.incarnationSeen()) && !audit.auditPending()
                    && audit.lastReport() != null && restarted.equals(audit.lastReport().incarnation()));
            long auditedMs = Duration.ofNanos(System.nanoTime() - restartFrom).toMillis();
            LostReservationReport report = audit.lastReport();

            Set<ReservationId> lostIds = lostByRedis.stream().map(Acknowledged::id).collect(Collectors.toSet());
            Set<ReservationId> neverInMysql = settled.unsettled(lostIds);
            Set<ReservationId> reported = report.lost().stream().map(Reservation::id).collect(Collectors.toSet());
            System.out.printf("durability mode=%s acknowledged=%d lostByRedis=%d lossWindowMs=%d repairedFromMysql=%d "
                            + "reportedLost=%d audited=%d redisLoadedMs=%d sellingOnRedisMs=%d auditedMs=%d%n", mode,
                    acknowledged.size(), lostByRedis.size(), lossWindowMs, lostIds.size() - neverInMysql.size(),
                    reported.size(), report.audited(), loadedMs, sellingOnRedisMs, auditedMs);

            assertThat(acknowledged).as("reservations acknowledged before the kill").hasSizeGreaterThan(10);
            switch (mode) {
                case NONE -> assertThat(lostByRedis).as("nothing is kept").hasSameSizeAs(acknowledged);
                case AOF_ALWAYS -> assertThat(lostByRedis).as("every acknowledged write was fsynced first").isEmpty();
                // fsync once a second: at most the last ~1-2 s of writes (2 s when a slow fsync is pending).
                case AOF_EVERYSEC -> assertThat(lossWindowMs).as("the loss window").isLessThanOrEqualTo(2_500);
            }
            // Reported: exactly the acknowledged reservations Redis lost that never reached MySQL, and counted.
            assertThat(reported).as("reported lost").isEqualTo(neverInMysql);
            assertThat(lostCounter() - lostBefore).isEqualTo(neverInMysql.size());
            assertThat(report.audited() + report.unaudited()).isGreaterThanOrEqualTo(acknowledged.size());
            assertThat(settled.unsettled(reported)).as("no order exists for a reported one").isEqualTo(reported);

            // Repaired: each one that reached MySQL is counted in Redis again (its buyer holds the unit), and Redis
            // agrees with MySQL once the pipeline has settled: sold is MySQL's, nothing is left reserved.
            SkuId sku = new SkuId(ServiceClient.SKU);
            await().atMost(WITHIN).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                reconcile(sale);
                for (Acknowledged lost : lostByRedis) {
                    if (!neverInMysql.contains(lost.id())) {
                        assertThat(redisStore.holdings(activity, new BuyerId(lost.buyer())))
                                .as("the holding of " + lost.buyer()).isEqualTo(Map.of(sku, 1L));
                    }
                }
                assertThat(singleReport(reconcile(sale))).isEqualTo("NONE");
                long soldInMysql = figures.soldBySku(activity).getOrDefault(sku, 0L);
                assertThat(redisStore.stock(activity).orElseThrow().getFirst().ledger())
                        .isEqualTo(new StockLedger(10_000_000, 0, soldInMysql));
            });
        } finally {
            redisServer.kill();
            deleteQuietly(dir);
        }
    }

    /** Fresh buyers over HTTP for {@link #LOAD}, then the SIGKILL under that load; returns when it happened. */
    private long loadAndKill(String sale, ConcurrentLinkedQueue<Acknowledged> acknowledged) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        long killedAt;
        try (ExecutorService buyers = Executors.newFixedThreadPool(BUYERS)) {
            for (int t = 0; t < BUYERS; t++) {
                int thread = t;
                buyers.submit(() -> {
                    for (int i = 0; !stop.get(); i++) {
                        String buyer = "b" + RUN + "-" + thread + "-" + i;
                        ServiceClient.Reply reply = reserve(sale, buyer);
                        if (reply.status() == 202 && "RESERVED".equals(reply.json().path("status").asString())) {
                            acknowledged.add(new Acknowledged(
                                    new ReservationId(reply.json().path("reservationId").asString()), buyer,
                                    System.nanoTime()));
                        }
                    }
                });
            }
            Thread.sleep(LOAD);
            killedAt = System.nanoTime();
            redisServer.kill();
            stop.set(true);
            buyers.shutdown();
            assertThat(buyers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        return killedAt;
    }

    /** Reads the data directory with a server of the test's own (not the service's) and returns what it lacks. */
    private List<Acknowledged> keptAfterTheKill(Path dir, Mode mode, ConcurrentLinkedQueue<Acknowledged> acknowledged) {
        List<Acknowledged> lost = new ArrayList<>();
        try (RedisServerProcess reader = mode.serverOn(ServiceProcess.freePort(), dir).start();
             RedisHotStore store = RedisHotStore.connect(new RedisHotStore.Settings("127.0.0.1", reader.port(), null, 0,
                     Duration.ofSeconds(5)), "fs:outbox:it-durability-reader-" + RUN)) {
            HeldReservationsPort read = store.reservationRoles().held();
            Acknowledged any = acknowledged.peek();
            if (any != null) {
                // A server reading an AOF answers LOADING until it has read the whole file.
                await().atMost(WITHIN).ignoreException(StoreUnavailableException.class)
                        .until(() -> read.findReservation(any.id()) != null);
            }
            RedisClient client = RedisClient.create(RedisURI.create("127.0.0.1", reader.port()));
            try (StatefulRedisConnection<String, String> raw = client.connect()) {
                for (Acknowledged reservation : acknowledged) {
                    if (read.findReservation(reservation.id()).isEmpty() && !ordered(raw.sync(), reservation)) {
                        lost.add(reservation);
                    }
                }
            } finally {
                client.shutdown();
            }
        }
        return lost;
    }

    /**
     * Kept as an order: MySQL ordered it before the kill, so its record left Redis (ADR 71) and only its request entry
     * names it. These attempts send no key, so the request is the id's token.
     */
    private static boolean ordered(RedisCommands<String, String> redis, Acknowledged reservation) {
        ReservationId id = reservation.id();
        RequestId request = new RequestId(id.value().substring(id.value().lastIndexOf('.') + 1));
        String value = RedisRequestIndex.entry(redis, id.activityId(),
                RedisKeys.requestField(new BuyerId(reservation.buyer()), request));
        return value != null && RedisKeys.requestedReservation(id.activityId(), request, value).equals(id);
    }

    /** The service's connection comes back on its own (at most every 500 ms): Redis's run id once it has. */
    private String incarnationOnceConnected() {
        AtomicReference<String> runId = new AtomicReference<>();
        await().atMost(WITHIN).ignoreExceptions().until(() -> {
            runId.set(redis.incarnation());
            return true;
        });
        return runId.get();
    }

    private ServiceClient.Reply reserve(String sale, String buyer) {
        return api().reserveAsync(sale, buyer).join();
    }

    private tools.jackson.databind.JsonNode reconcile(String sale) {
        ServiceClient.Reply reply = api().asAdmin("POST", "/api/v1/activities/" + sale + "/reconciliation", null);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply.json();
    }

    private static String singleReport(tools.jackson.databind.JsonNode reconciliation) {
        assertThat(reconciliation.path("reports").size()).as(reconciliation.toString()).isEqualTo(1);
        return reconciliation.path("reports").get(0).path("classification").asString();
    }

    private double lostCounter() {
        return meters.get(LostReservationReports.AUDITED).tag("result", "lost").counter().count();
    }

    private int breakerState() {
        return (int) meters.get(OutageConfiguration.BREAKER_STATE).gauge().value();
    }

    private ServiceClient api() {
        return new ServiceClient(port, ADMIN_TOKEN);
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }
}
