package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.testsupport.RedisServerProcess;
import io.flashsale.testsupport.RedisServerProcess.Persistence;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three Redis durability modes, measured: a {@link RedisServerProcess} of this test's own (free port, temporary
 * directory) in each mode takes reservations from four threads, is SIGKILLed under that load, and is started again on
 * the same directory. Counted: acknowledged reservations (the script answered RESERVED) that the restarted Redis no
 * longer holds, and how long the restart took until it answered with its data loaded. Each mode prints one line,
 * {@code durability mode=... acknowledged=... lost=... lossWindowMs=... recoveryMs=... reservePerSecond=...}
 * (adapter-level rate of this test, not the HTTP harness's). What MySQL repairs, and the report of what it cannot, is
 * bootstrap's {@code DurabilityModesIT} (the whole service, ADR 0047).
 */
@Timeout(120)
class RedisDurabilityModesIT {

    private static final SkuId SKU = new SkuId("unit");
    private static final Duration LOAD = Duration.ofMillis(1500);

    private record Acknowledged(ReservationId id, long atNanos) {
    }

    @ParameterizedTest
    @EnumSource(Persistence.class)
    void aSigkillUnderLoadLosesWhatTheModeAllowsAndNoMore(Persistence mode) throws Exception {
        RedisServerProcess redis = RedisServerProcess.onFreePort(mode, "--appendfilename", "flashsale.aof").start();
        int port = redis.port();
        var acknowledged = new ConcurrentLinkedQueue<Acknowledged>();
        Activity sale = sale();
        long killedAt;
        RedisClient client = RedisClient.create(RedisURI.builder().withHost("127.0.0.1").withPort(port)
                .withTimeout(Duration.ofSeconds(2)).build());
        // The buyers must see the kill at once, not wait in a reconnect queue.
        client.setOptions(ClientOptions.builder().autoReconnect(false)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            var stock = new RedisStockReservationAdapter(connection, "fs:outbox:durability:" + UUID.randomUUID());
            stock.warmUp(sale);
            AtomicBoolean stop = new AtomicBoolean();
            long loadFrom = System.nanoTime();
            try (ExecutorService buyers = Executors.newFixedThreadPool(4)) {
                for (int t = 0; t < 4; t++) {
                    int thread = t;
                    buyers.submit(() -> {
                        for (int i = 0; !stop.get(); i++) {
                            var id = ReservationId.of(sale.id(), UUID.randomUUID().toString().replace("-", ""));
                            try {
                                if (stock.reserve(new ReservationRequest(id, new BuyerId("b" + thread + "-" + i),
                                        new RequestId("r" + thread + "-" + i), List.of(new ReservationLine(SKU, 1)),
                                        Instant.now())) instanceof ReservationOutcome.Reserved) {
                                    acknowledged.add(new Acknowledged(id, System.nanoTime()));
                                }
                            } catch (RuntimeException redisGone) {
                                return;
                            }
                        }
                    });
                }
                Thread.sleep(LOAD);
                killedAt = System.nanoTime();
                redis.kill();
                stop.set(true);
                buyers.shutdown();
                assertThat(buyers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            }
            double reservePerSecond = acknowledged.size() / (Duration.ofNanos(killedAt - loadFrom).toMillis() / 1000.0);

            long restartFrom = System.nanoTime();
            redis.start();
            try (RedisClient again = RedisClient.create(RedisURI.create("127.0.0.1", port));
                 StatefulRedisConnection<String, String> after = connectWhenLoaded(again)) {
                long recoveryMs = Duration.ofNanos(System.nanoTime() - restartFrom).toMillis();
                var read = new RedisStockReservationAdapter(after, "fs:outbox:durability:" + UUID.randomUUID());
                List<Acknowledged> lost = new ArrayList<>();
                for (Acknowledged reservation : acknowledged) {
                    if (read.findReservation(reservation.id()).isEmpty()) {
                        lost.add(reservation);
                    }
                }
                long lossWindowMs = lost.stream().mapToLong(Acknowledged::atNanos).min()
                        .stream().map(first -> Duration.ofNanos(killedAt - first).toMillis()).findFirst().orElse(0);
                System.out.printf("durability mode=%s acknowledged=%d lost=%d lossWindowMs=%d recoveryMs=%d "
                                + "reservePerSecond=%.0f%n", mode, acknowledged.size(), lost.size(), lossWindowMs,
                        recoveryMs, reservePerSecond);

                assertThat(acknowledged).as("reservations taken before the kill").hasSizeGreaterThan(50);
                switch (mode) {
                    case NONE -> assertThat(lost).as("nothing is kept").hasSameSizeAs(acknowledged);
                    case AOF_ALWAYS -> assertThat(lost).as("every acknowledged write was fsynced first").isEmpty();
                    // fsync once a second: at most the last ~1-2 s of writes (2 s when a slow fsync is pending).
                    case AOF_EVERYSEC -> assertThat(lossWindowMs).as("the loss window").isLessThanOrEqualTo(2_500);
                }
            }
        } finally {
            client.shutdown();
            redis.close();
        }
    }

    private static StatefulRedisConnection<String, String> connectWhenLoaded(RedisClient client)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                StatefulRedisConnection<String, String> connection = client.connect();
                try {
                    // Refused with LOADING until the whole AOF is read back.
                    connection.sync().dbsize();
                    return connection;
                } catch (RuntimeException loading) {
                    connection.close();
                    throw loading;
                }
            } catch (RuntimeException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
            }
            Thread.sleep(20);
        }
    }

    private static Activity sale() {
        Instant now = Instant.now();
        return new Activity(new ActivityId("durability-" + UUID.randomUUID().toString().substring(0, 8)), "durability",
                now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)), PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(new ActivityItem(SKU, 10_000_000, null, 1)));
    }
}
