package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buckets two service instances share: each "instance" is its own {@link RedisHotStore} (own client and
 * connection), all take from the same buyer's bucket at once, and together they get no more than its burst.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisRateLimitBucketsIT {

    private static final String PREFIX = "fs:rl:it-" + UUID.randomUUID() + ":";
    private static final RedisHotStore FIRST = connect();
    private static final RedisHotStore SECOND = connect();
    private static final RateLimitBucketsPort ON_FIRST = FIRST.rateLimitBuckets(PREFIX, Duration.ofSeconds(2));
    private static final RateLimitBucketsPort ON_SECOND = SECOND.rateLimitBuckets(PREFIX, Duration.ofSeconds(2));
    /** A burst of 10, then one token a minute: nothing refills while a test runs. */
    private static final BucketLimit TEN_THEN_SLOW = new BucketLimit(10, 1, Duration.ofMinutes(1));

    @AfterAll
    static void close() {
        FIRST.close();
        SECOND.close();
    }

    @RepeatedTest(3)
    void twoInstancesHammeringOneBuyerGetItsBurstAndNoMore() throws Exception {
        BucketKey buyer = new BucketKey(AdmissionLimit.BUYER, "sale-" + UUID.randomUUID() + ":buyer-1");
        int threads = 8;
        int attemptsEach = 10;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<Integer>> taken = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                RateLimitBucketsPort instance = t % 2 == 0 ? ON_FIRST : ON_SECOND;
                taken.add(pool.submit(() -> {
                    start.await();
                    int mine = 0;
                    for (int i = 0; i < attemptsEach; i++) {
                        if (instance.tryTake(buyer, TEN_THEN_SLOW).taken()) {
                            mine++;
                        }
                    }
                    return mine;
                }));
            }
            int total = 0;
            for (Future<Integer> future : taken) {
                total += future.get(30, TimeUnit.SECONDS);
            }
            assertThat(total).isEqualTo(10);
        }
    }

    @Test
    void aRefusalSaysWhenTheNextTokenComes() {
        BucketKey buyer = new BucketKey(AdmissionLimit.BUYER, "sale-" + UUID.randomUUID() + ":buyer-2");
        BucketLimit twoPerSecond = new BucketLimit(2, 2, Duration.ofSeconds(1));
        assertThat(ON_FIRST.tryTake(buyer, twoPerSecond).remaining()).isEqualTo(1);
        assertThat(ON_SECOND.tryTake(buyer, twoPerSecond).remaining()).isZero();
        BucketAnswer refused = ON_FIRST.tryTake(buyer, twoPerSecond);
        assertThat(refused.taken()).isFalse();
        assertThat(refused.untilNextToken()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(500));
    }

    @Test
    void otherBuyersHaveTheirOwnBuckets() {
        String sale = "sale-" + UUID.randomUUID();
        BucketKey hammering = new BucketKey(AdmissionLimit.BUYER, sale + ":hammering");
        for (int i = 0; i < 15; i++) {
            ON_FIRST.tryTake(hammering, TEN_THEN_SLOW);
        }
        assertThat(ON_FIRST.tryTake(hammering, TEN_THEN_SLOW).taken()).isFalse();
        assertThat(ON_SECOND.tryTake(new BucketKey(AdmissionLimit.BUYER, sale + ":quiet"), TEN_THEN_SLOW).taken())
                .isTrue();
        assertThat(ON_SECOND.tryTake(new BucketKey(AdmissionLimit.CLIENT, sale + ":hammering"), TEN_THEN_SLOW)
                .taken()).as("another limit's bucket of the same subject").isTrue();
    }

    @Test
    void aBucketKeyExpiresSoonAfterItWouldBeFull() {
        String subject = "sale-" + UUID.randomUUID() + ":buyer-3";
        ON_FIRST.tryTake(new BucketKey(AdmissionLimit.BUYER, subject), new BucketLimit(10, 5, Duration.ofSeconds(1)));
        long ttl = SharedRedis.commands().pttl(PREFIX + "buyer:" + subject);
        // Full again within 200 ms of one take, kept 5 s more.
        assertThat(ttl).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(6).toMillis());
    }

    private static RedisHotStore connect() {
        return RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(2)), SharedRedis.newRegistry());
    }
}
