package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.testsupport.CommandStats;
import io.flashsale.testsupport.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.XGroupCreateArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One whole instance (relay, sold-out memory's subscription, schedules, a health check a second as a load balancer
 * makes) beside 1,000 warmed sales where nothing happens: it sends at most 50 Redis commands a second (ADR 0067). The
 * redis-server is the test's own, so {@code INFO commandstats} counts this instance alone.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Timeout(180)
class IdleInstanceRedisCostIT {

    private static final String RUN = UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    private static final String REGISTRY = "fs:outbox:it-idle-" + RUN;
    private static final int SALES = 1000;
    /** The default sweep interval, and a second: the measurement starts in the paced sweep, the idle steady state. */
    private static final Duration SETTLE = Duration.ofSeconds(6);
    private static final Duration WINDOW = Duration.ofSeconds(10);
    private static RedisServerProcess redisServer;

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        redisServer = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE);
        redisServer.start();
        // Warmed before the instance starts, as it starts beside sales warmed earlier: its first sweep meets them all.
        RedisClient client = RedisClient.create(redisServer.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            warmCheaply(connection);
        } finally {
            client.shutdown();
        }
        OwnRedisServiceProperties.register(registry, redisServer.port(), "idle-it-admin-token-0123456789abcdef", "idle-" + RUN);
    }

    @AfterAll
    static void stopRedis() {
        if (redisServer != null) {
            redisServer.close();
        }
    }

    @Test
    void givenAThousandWarmedSalesAndNothingHappening_thenTheInstanceSendsAtMostFiftyCommandsASecond() {
        RedisClient client = RedisClient.create(redisServer.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            pauseWithHealthChecks(SETTLE);

            Map<String, Long> before = commandCalls(connection);
            pauseWithHealthChecks(WINDOW);
            Map<String, Long> after = commandCalls(connection);

            Map<String, Long> delta = CommandStats.between(before, after);
            double perSecond = CommandStats.perSecond(delta, WINDOW);
            System.out.printf("idle instance, %d sales: %.1f Redis commands/s over %d s: %s%n", SALES, perSecond,
                    WINDOW.toSeconds(), delta);
            assertThat(perSecond).isLessThanOrEqualTo(50);
        } finally {
            client.shutdown();
        }
    }

    /**
     * Registered and ready (its meta says so, as a warm-up leaves it: the instance reads the sale's slice count there
     * once), with an empty outbox and its group, as a sale whose reservations were all relayed.
     */
    private static void warmCheaply(StatefulRedisConnection<String, String> connection) {
        List<String> ids = IntStream.range(0, SALES).mapToObj(i -> "idle-" + i).toList();
        connection.sync().sadd(REGISTRY, ids.toArray(String[]::new));
        ids.stream().map(id -> connection.async().hset(RedisKeys.meta(new ActivityId(id)), RedisKeys.META_READY, "1")
                .toCompletableFuture()).toList().forEach(CompletableFuture::join);
        ids.stream().map(id -> connection.async().xgroupCreate(
                        XReadArgs.StreamOffset.from(RedisKeys.outbox(new ActivityId(id)), "$"), RedisKeys.OUTBOX_GROUP,
                        XGroupCreateArgs.Builder.mkstream()).toCompletableFuture())
                .toList().forEach(CompletableFuture::join);
    }

    /** A health check a second, as a load balancer probes an instance. */
    private void pauseWithHealthChecks(Duration pause) {
        var client = new ServiceClient(managementPort, "idle-it-admin-token-0123456789abcdef");
        long until = System.nanoTime() + pause.toNanos();
        while (System.nanoTime() < until) {
            assertThat(client.asAdmin("GET", "/actuator/health", null).status()).isEqualTo(200);
            try {
                Thread.sleep(Math.max(0, Math.min(1000, (until - System.nanoTime()) / 1_000_000)));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static Map<String, Long> commandCalls(StatefulRedisConnection<String, String> connection) {
        return CommandStats.calls(connection.sync().info("commandstats"));
    }
}
