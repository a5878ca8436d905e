package io.flashsale.bootstrap.pipeline;

import io.flashsale.bootstrap.FlashsaleApplication;
import io.flashsale.bootstrap.config.OutageConfiguration;
import io.flashsale.testsupport.CommandStats;
import io.flashsale.testsupport.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The risk control over HTTP, the whole service on a redis-server of the test's own, so {@code INFO commandstats}
 * counts this instance alone (its relay is off: nothing else in it talks to Redis while the tests send attempts).
 * Blocklisted buyers, address blocks and devices are refused 403 BLOCKED before any Redis call; a device with too many
 * buyers is refused for its window; an unblock on one instance reaches another within a second through pub/sub (the
 * periodic read is an hour apart here); and while Redis is down the buyer's bucket holds on the database path.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(300)
class RiskControlIT {

    private static final String ADMIN_TOKEN = "risk-it-admin-token-0123456789abcdefghij";
    private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private static final RedisServerProcess REDIS = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE)
            .start();
    private static final Duration WITHIN = Duration.ofSeconds(30);
    private static final String BODY = "{\"items\":[{\"skuId\":\"" + ServiceClient.SKU + "\",\"quantity\":1}]}";
    /**
     * What the instance sends whatever the buyers do: the PINGs of the hot-store recovery loop, which probes a closed
     * breaker too (HotStoreRecovery), every 200 ms here, and INFO, which it reads Redis's run id with to notice a
     * restart (and the test its counts with). Anything else during refused attempts would be theirs.
     */
    private static final Set<String> BACKGROUND = Set.of("ping", "info");
    /** Commands that would mean the attempt reached the hot store or a shared bucket. */
    private static final Set<String> SCRIPT_CALLS = Set.of("eval", "evalsha", "eval_ro", "evalsha_ro", "fcall");
    /** The properties that make a second instance part of this test's deployment. */
    private static final List<String> DEPLOYMENT = List.of("spring.data.redis.host", "spring.data.redis.port",
            "spring.data.redis.timeout", "spring.datasource.url", "spring.datasource.username",
            "spring.datasource.password", "flashsale.admin.token", "spring.kafka.bootstrap-servers",
            "flashsale.kafka.topic", "flashsale.kafka.consumer.group-id", "flashsale.redis.outbox-registry",
            "flashsale.relay.enabled", "flashsale.warm-up.schedule-enabled", "flashsale.archive.schedule-enabled",
            "flashsale.reconciliation.schedule-enabled", "flashsale.risk.blocklist.refresh-interval",
            "flashsale.risk.device.max-buyers");

    @LocalServerPort
    int port;
    @Autowired
    Environment environment;
    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        OwnRedisServiceProperties.register(registry, REDIS.port(), ADMIN_TOKEN, "risk-" + RUN);
        registry.add("flashsale.relay.enabled", () -> "false");
        // Only the pub/sub notice can explain a change seen within the tests' time.
        registry.add("flashsale.risk.blocklist.refresh-interval", () -> "1h");
        registry.add("flashsale.risk.device.max-buyers", () -> "3");
        registry.add("flashsale.rate-limit.buyer.burst", () -> "3");
        registry.add("flashsale.rate-limit.buyer.per-second", () -> "1");
    }

    @AfterAll
    static void stopRedis() {
        if (stats != null) {
            stats.close();
        }
        REDIS.close();
    }

    @Test
    @Order(1)
    void listedBuyersAddressBlocksAndDevicesAreRefusedBeforeAnyRedisCall() throws InterruptedException {
        String sale = api().openSale(100);
        String mallory = "mallory-" + RUN;
        String farm = "farm-" + RUN;
        block("buyer", mallory);
        block("device", farm);
        // Every attempt of these tests comes from 127.0.0.1.
        block("address", "127.0.0.0/8");
        try {
            await().atMost(WITHIN).until(() -> blockedBy(reserve(sale, "anyone-" + RUN)).equals("address"));
            assertThat(blockedBy(reserve(sale, mallory))).isEqualTo("buyer");

            Map<String, Long> before = quietCommandCalls();
            List<String> refusals = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                refusals.add(blockedBy(reserve(sale, mallory)));
                refusals.add(blockedBy(reserve(sale, "crowd-" + i + "-" + RUN)));
                refusals.add(blockedBy(reserve(sale, "crowd-" + i + "-" + RUN, "X-Device-Id", farm)));
            }
            Map<String, Long> during = commandsSince(before);

            assertThat(refusals).hasSize(60).containsOnly("buyer", "address");
            assertThat(during).as("Redis commands while 60 attempts were refused").isEmpty();
        } finally {
            unblock("address", "127.0.0.1/8");
        }
        await().atMost(WITHIN).until(() -> !"address".equals(blockedBy(reserve(sale, mallory))));
        Map<String, Long> before = quietCommandCalls();
        List<String> refused = List.of(blockedBy(reserve(sale, mallory)),
                blockedBy(reserve(sale, "crowd-0-" + RUN, "X-Device-Id", farm)));
        Map<String, Long> during = commandsSince(before);
        assertThat(refused).containsExactly("buyer", "device");
        assertThat(during).as("Redis commands while the device and the buyer were refused").isEmpty();

        // The control: an attempt nobody blocks reaches the reserve script.
        before = quietCommandCalls();
        ServiceClient.Reply admitted = reserve(sale, "crowd-0-" + RUN, "X-Device-Id", "own-" + RUN);
        assertThat(admitted.status()).as(admitted.body()).isEqualTo(202);
        assertThat(commandsSince(before).keySet()).containsAnyElementsOf(SCRIPT_CALLS);
        assertThat(meters.get("flashsale.risk.blocked").tag("by", "address").counter().count()).isPositive();

        ServiceClient.Reply audit = api().asAdmin("GET", "/api/v1/admin/blocklist/changes", null);
        assertThat(audit.status()).isEqualTo(200);
        assertThat(audit.json().path("changes").valueStream()
                .filter(change -> change.path("value").asString().equals("127.0.0.0/8"))
                .map(change -> change.path("action").asString() + " " + change.path("operator").asString()))
                .as("the operator whose token made the change").containsExactly("add admin", "remove admin");
        ServiceClient.Reply listed = api().asAdmin("GET", "/api/v1/admin/blocklist", null);
        assertThat(listed.json().path("entries").valueStream().map(entry -> entry.path("value").asString()))
                .contains(mallory, farm).doesNotContain("127.0.0.0/8");
    }

    @Test
    @Order(2)
    void aDeviceSeenWithMoreThanThreeBuyersIsRefusedForItsWindow() throws InterruptedException {
        String sale = api().openSale(100);
        String device = "shared-" + RUN;
        for (int i = 0; i < 3; i++) {
            ServiceClient.Reply reply = reserve(sale, "sharer-" + i + "-" + RUN, "X-Device-Id", device);
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        }
        Map<String, Long> before = quietCommandCalls();
        assertThat(blockedBy(reserve(sale, "sharer-3-" + RUN, "X-Device-Id", device))).isEqualTo("shared-device");
        assertThat(blockedBy(reserve(sale, "sharer-0-" + RUN, "X-Device-Id", device))).isEqualTo("shared-device");
        assertThat(commandsSince(before)).isEmpty();

        ServiceClient.Reply elsewhere = reserve(sale, "sharer-3-" + RUN, "X-Device-Id", "other-" + RUN);
        assertThat(elsewhere.status()).as(elsewhere.body()).isEqualTo(202);
    }

    @Test
    @Order(3)
    void anUnblockOnOneInstanceTakesEffectOnAnotherWithinOneSecond() {
        String sale = api().openSale(100);
        String eve = "eve-" + RUN;
        try (ConfigurableApplicationContext second = secondInstance()) {
            ServiceClient other = new ServiceClient(
                    Integer.parseInt(second.getEnvironment().getProperty("local.server.port")), ADMIN_TOKEN);
            assertThat(reserveOn(other, sale, eve).status()).isEqualTo(202);

            block("buyer", eve);
            long blockedWithin = untilOn(other, sale, eve, 403);
            unblock("buyer", eve);
            long unblockedWithin = untilOn(other, sale, eve, 409);

            assertThat(Duration.ofNanos(blockedWithin)).isLessThan(Duration.ofSeconds(1));
            assertThat(Duration.ofNanos(unblockedWithin)).isLessThan(Duration.ofSeconds(1));
        }
    }

    @Test
    @Order(4)
    void theBuyersLimitHoldsWhileRedisIsDown() {
        String sale = api().openSale(100);
        REDIS.kill();
        await().atMost(WITHIN).until(() -> {
            reserve(sale, "probe-" + UUID.randomUUID().toString().substring(0, 8));
            return breakerState() == 1;
        });
        String hammer = "hammer-" + RUN;

        long started = System.nanoTime();
        List<ServiceClient.Reply> replies = Stream.generate(() -> reserve(sale, hammer)).limit(12).toList();
        double seconds = (System.nanoTime() - started) / 1e9;

        List<ServiceClient.Reply> limited = replies.stream().filter(reply -> reply.status() == 429).toList();
        // A bucket of 3 refilled by 1 a second lets at most 3 + (elapsed seconds) attempts through.
        assertThat(replies.size() - limited.size()).as("%s in %.1f s", replies, seconds)
                .isBetween(1, 3 + (int) Math.ceil(seconds));
        assertThat(limited).isNotEmpty().allSatisfy(reply -> {
            assertThat(reply.json().path("code").asString()).isEqualTo("RATE_LIMITED");
            assertThat(reply.json().path("limit").asString()).isEqualTo("buyer");
        });
        assertThat(replies.getFirst().status()).as(replies.getFirst().body()).isEqualTo(202);
        assertThat(replies.getFirst().json().path("status").asString()).isEqualTo("ORDERED");
        ServiceClient.Reply another = reserve(sale, "patient-" + RUN);
        assertThat(another.status()).as(another.body()).isEqualTo(202);
        assertThat(breakerState()).isEqualTo(1);
    }

    /** As the reserve script does: a retry is looked up by its key before the buyer's bucket, and costs no token. */
    @Test
    @Order(5)
    void aKeyedRetryIsReplayedWhileRedisIsDownThoughTheBuyersBucketIsEmpty() {
        // The sale is warmed into Redis, which the test before left down: back up until the instance uses it again.
        REDIS.restart();
        await().atMost(WITHIN).until(() -> breakerState() == 0);
        String sale = api().openSale(100);
        REDIS.kill();
        await().atMost(WITHIN).until(() -> {
            reserve(sale, "probe-" + UUID.randomUUID().toString().substring(0, 8));
            return breakerState() == 1;
        });
        String retrier = "retrier-" + RUN;
        String key = "retry-key-" + RUN;

        ServiceClient.Reply first = reserve(sale, retrier, "Idempotency-Key", key);
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        await().atMost(WITHIN).until(() -> reserve(sale, retrier).status() == 429);
        // Five retries at once: the bucket (3, refilled by 1 a second) would refuse most of them, were it asked.
        List<ServiceClient.Reply> retries = Stream.generate(() -> reserve(sale, retrier, "Idempotency-Key", key))
                .limit(5).toList();

        assertThat(retries).allSatisfy(retry -> {
            assertThat(retry.status()).as(retry.body()).isIn(200, 202);
            assertThat(retry.json().path("reservationId").asString())
                    .isEqualTo(first.json().path("reservationId").asString());
        });
    }

    // ---- helpers ----

    private void block(String kind, String value) {
        ServiceClient.Reply added = api().send("POST", "/api/v1/admin/blocklist",
                "{\"kind\":\"" + kind + "\",\"value\":\"" + value + "\",\"reason\":\"risk control test\"}",
                "Authorization", "Bearer " + ADMIN_TOKEN);
        assertThat(added.status()).as(added.body()).isEqualTo(201);
    }

    private void unblock(String kind, String value) {
        ServiceClient.Reply removed = api().send("DELETE", "/api/v1/admin/blocklist?kind=" + kind + "&value="
                        + URLEncoder.encode(value, StandardCharsets.UTF_8), null,
                "Authorization", "Bearer " + ADMIN_TOKEN);
        assertThat(removed.status()).as(removed.body()).isEqualTo(204);
    }

    /** The nanoseconds until an attempt of the buyer on {@code instance} is answered {@code status}. */
    private static long untilOn(ServiceClient instance, String sale, String buyer, int status) {
        long from = System.nanoTime();
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(20))
                .until(() -> reserveOn(instance, sale, buyer).status() == status);
        return System.nanoTime() - from;
    }

    private ServiceClient.Reply reserve(String sale, String buyer, String... headers) {
        return reserveOn(api(), sale, buyer, headers);
    }

    private static ServiceClient.Reply reserveOn(ServiceClient instance, String sale, String buyer, String... headers) {
        String[] all = Stream.concat(Stream.of("Authorization", bearerOf(buyer)), Stream.of(headers))
                .toArray(String[]::new);
        return instance.send("POST", "/api/v1/activities/" + sale + "/reservations", BODY, all);
    }

    /** The refusal's {@code blockedBy}, or the status and code of any other answer. */
    private static String blockedBy(ServiceClient.Reply reply) {
        if (reply.status() == 403 && reply.json().path("code").asString().equals("BLOCKED")) {
            return reply.json().path("blockedBy").asString();
        }
        return reply.status() + " " + reply.body();
    }

    private static StatefulRedisConnection<String, String> stats;

    /** Read on one connection of the test's own, opened once: its INFO is the only command it adds. */
    private static synchronized Map<String, Long> commandCalls() {
        if (stats == null) {
            stats = RedisClient.create(REDIS.uri()).connect();
        }
        return CommandStats.calls(stats.sync().info("commandstats"));
    }

    /**
     * The counts once the instance has finished with earlier attempts (an accepted reservation's outbox news is
     * published after its answer): two readings 300 ms apart with nothing but the background between them.
     */
    private static Map<String, Long> quietCommandCalls() throws InterruptedException {
        Map<String, Long> reading = commandCalls();
        for (int i = 0; i < 50; i++) {
            Thread.sleep(300);
            Map<String, Long> next = commandCalls();
            if (withoutBackground(CommandStats.between(reading, next)).isEmpty()) {
                return next;
            }
            reading = next;
        }
        throw new IllegalStateException("the instance never stopped talking to Redis");
    }

    /** The commands since {@code before}, less the instance's {@link #BACKGROUND}. */
    private static Map<String, Long> commandsSince(Map<String, Long> before) {
        return withoutBackground(CommandStats.between(before, commandCalls()));
    }

    private static Map<String, Long> withoutBackground(Map<String, Long> delta) {
        Map<String, Long> theirs = new TreeMap<>(delta);
        theirs.keySet().removeAll(BACKGROUND);
        return theirs;
    }

    private int breakerState() {
        return (int) meters.get(OutageConfiguration.BREAKER_STATE).gauge().value();
    }

    private ConfigurableApplicationContext secondInstance() {
        List<String> arguments = new ArrayList<>();
        for (String key : DEPLOYMENT) {
            String value = environment.getProperty(key);
            if (value != null) {
                arguments.add("--" + key + "=" + value);
            }
        }
        arguments.add("--server.port=0");
        arguments.add("--management.server.port=0");
        return new SpringApplicationBuilder(FlashsaleApplication.class).run(arguments.toArray(String[]::new));
    }

    private ServiceClient api() {
        return new ServiceClient(port, ADMIN_TOKEN);
    }
}
