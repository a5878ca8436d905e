package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.port.out.StockReturnListener;
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
import io.lettuce.core.RedisException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A store made while its Redis is down (issue 12): it is made all the same, its calls fail at once, and once a
 * redis-server of this test's own answers on the port it connects without being made again, runs its scripts (loaded
 * on first use) and listens for returns of units. A store that lost its Redis for a while gets it back within about a
 * second of its return, however long the outage.
 */
@Timeout(60)
class RedisHotStoreLazyStartIT {

    private static final Instant NOW = Instant.now();

    private RedisServerProcess server;
    private RedisHotStore store;

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private void awaitPong() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try {
                if ("PONG".equals(store.ping())) {
                    return;
                }
            } catch (RedisException notYet) {
                assertThat(System.nanoTime()).as("connected within 20 s").isLessThan(deadline);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void givenRedisGoneForTenSeconds_whenItComesBack_thenTheStoreAnswersWithinASecondOrSo() throws InterruptedException {
        server = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE);
        server.start();
        var settings = new RedisHotStore.Settings("127.0.0.1", server.port(), null, 0, Duration.ofSeconds(2));
        store = RedisHotStore.connect(settings, "fs:outbox:reconnect-it");
        assertThat(store.ping()).isEqualTo("PONG");

        server.kill();
        // Lettuce's own backoff (1 ms doubling, no jitter) would wait 8.2 s for its attempt after 8.2 s of outage,
        // so a Redis back at 10 s would be reached at 16.4 s: 6 s late.
        Thread.sleep(10_000);
        server.start();
        long back = System.nanoTime();

        awaitPong();
        assertThat(Duration.ofNanos(System.nanoTime() - back)).as("reconnected after Redis was back")
                .isLessThan(Duration.ofMillis(2_500));
    }

    @Test
    void givenRedisDownAtStart_whenItComesUp_thenTheStoreConnectsRunsItsScriptsAndListens() {
        server = RedisServerProcess.onFreePort(RedisServerProcess.Persistence.NONE);
        var settings = new RedisHotStore.Settings("127.0.0.1", server.port(), null, 0, Duration.ofSeconds(2));
        store = RedisHotStore.connect(settings, "fs:outbox:lazy-start-it");
        AtomicInteger resubscribed = new AtomicInteger();
        store.stockReturns().subscribe(new StockReturnListener() {
            @Override
            public void returned(ActivityId activityId) {
            }

            @Override
            public void missedSome() {
                resubscribed.incrementAndGet();
            }
        });
        assertThatThrownBy(store::ping).isInstanceOf(RedisException.class);

        server.start();

        awaitPong();
        long subscribedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (resubscribed.get() == 0 && System.nanoTime() < subscribedBy) {
            Thread.onSpinWait();
        }
        assertThat(resubscribed).as("the returns listener subscribed once connected").hasValue(1);
        ActivityId sale = new ActivityId("lazy-" + System.nanoTime());
        SkuId sku = new SkuId("sku");
        var reservations = store.stockReservations();
        reservations.warmUp(new Activity(sale, "lazy", NOW.minusSeconds(60), NOW.plusSeconds(3600), PurchaseLimit.ONE,
                Duration.ofMinutes(15), List.of(ActivityItem.of(sku.value(), 1))));
        ReservationOutcome outcome = reservations.reserve(new ReservationRequest(ReservationId.of(sale, "t1"),
                new BuyerId("buyer"), new RequestId("r1"), List.of(new ReservationLine(sku, 1)), NOW));
        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
    }
}
