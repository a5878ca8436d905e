package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buyer's rate limit taken by {@code reserve.lua} in the step that decides the attempt (ADR 0060): two
 * "instances" (adapters on connections of their own) hammering for one buyer get the bucket's burst of reservations
 * and no more, and an attempt without a token moves nothing at all.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisReserveBuyerBucketIT {

    private static final SkuId PHONE = new SkuId("phone");
    /** A burst of 10, then one token a minute: nothing refills while a test runs. */
    private static final BucketLimit TEN_THEN_SLOW = new BucketLimit(10, 1, Duration.ofMinutes(1));
    private static final SharedRedis.Connection SECOND_CONNECTION = SharedRedis.connect();

    private final RedisStockReservationAdapter first = SharedRedis.adapter();
    private final RedisStockReservationAdapter second =
            SharedRedis.adapter(SECOND_CONNECTION.commands(), SharedRedis.registry());
    private final AtomicInteger tokens = new AtomicInteger();
    private ActivityId sale;

    @BeforeEach
    void openASale() {
        Instant now = Instant.now();
        sale = new ActivityId("bucket-" + UUID.randomUUID().toString().substring(0, 8));
        first.warmUp(new Activity(sale, "bucket", now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)),
                new PurchaseLimit(1_000), Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of(PHONE.value(), 10_000))));
    }

    @AfterEach
    void forgetTheSale() {
        SharedRedis.forget(sale);
        for (String buyer : List.of("hammering", "quiet", "b")) {
            SharedRedis.commands().del(RedisKeys.buyerBucket(sale, new BuyerId(buyer)));
        }
    }

    @AfterAll
    static void close() {
        SECOND_CONNECTION.close();
    }

    private ReservationRequest attempt(String buyer, BucketLimit bucket) {
        String token = "r" + tokens.incrementAndGet();
        return new ReservationRequest(ReservationId.of(sale, token), new BuyerId(buyer), new RequestId(token),
                List.of(new ReservationLine(PHONE, 1)), Instant.now(), bucket);
    }

    @RepeatedTest(5)
    void twoInstancesHammeringForOneBuyerReserveTheBurstAndNoMore() throws Exception {
        int threads = 8;
        int attemptsEach = 10;
        CyclicBarrier start = new CyclicBarrier(threads);
        List<Future<List<ReservationOutcome>>> outcomes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                RedisStockReservationAdapter instance = t % 2 == 0 ? first : second;
                outcomes.add(pool.submit(() -> {
                    start.await();
                    List<ReservationOutcome> mine = new ArrayList<>();
                    for (int i = 0; i < attemptsEach; i++) {
                        mine.add(instance.reserve(attempt("hammering", TEN_THEN_SLOW)));
                    }
                    return mine;
                }));
            }
            List<ReservationOutcome> all = new ArrayList<>();
            for (Future<List<ReservationOutcome>> future : outcomes) {
                all.addAll(future.get(30, TimeUnit.SECONDS));
            }
            assertThat(all).filteredOn(ReservationOutcome.Reserved.class::isInstance).hasSize(10);
            assertThat(all).filteredOn(ReservationOutcome.RateLimited.class::isInstance).hasSize(70)
                    .allSatisfy(outcome -> assertThat(((ReservationOutcome.RateLimited) outcome).limit())
                            .isEqualTo(AdmissionLimit.BUYER));
        }
        assertThat(first.stock(sale).orElseThrow().getFirst().ledger().reserved()).isEqualTo(10);
        assertThat(first.holdings(sale, new BuyerId("hammering"))).containsEntry(PHONE, 10L);
        assertThat(OutboxReservations.ids(SharedRedis.commands(), sale)).hasSize(10);
    }

    @Test
    void anAttemptWithoutATokenMovesNothing_andSaysWhenTheNextComes() {
        BucketLimit two = new BucketLimit(2, 2, Duration.ofSeconds(1));
        assertThat(first.reserve(attempt("b", two))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(second.reserve(attempt("b", two))).isInstanceOf(ReservationOutcome.Reserved.class);
        var before = SharedRedis.commands();
        List<String> outbox = OutboxReservations.ids(before, sale);
        long requests = RedisRequestIndex.size(before, sale);
        long reservations = before.hlen(RedisKeys.reservations(sale));

        ReservationRequest refusedAttempt = attempt("b", two);
        var refused = (ReservationOutcome.RateLimited) first.reserve(refusedAttempt);

        assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(500));
        assertThat(refused.capacity()).isEqualTo(2);
        assertThat(OutboxReservations.ids(before, sale)).isEqualTo(outbox);
        assertThat(RedisRequestIndex.size(before, sale)).isEqualTo(requests);
        assertThat(before.hlen(RedisKeys.reservations(sale))).isEqualTo(reservations);
        assertThat(first.findReservation(refusedAttempt.id())).isEmpty();
        assertThat(first.stock(sale).orElseThrow().getFirst().ledger().reserved()).isEqualTo(2);
    }

    @Test
    void otherBuyersAndAttemptsWithoutABucketAreNotLimitedByIt() {
        for (int i = 0; i < 12; i++) {
            first.reserve(attempt("hammering", TEN_THEN_SLOW));
        }
        assertThat(first.reserve(attempt("hammering", TEN_THEN_SLOW)))
                .isInstanceOf(ReservationOutcome.RateLimited.class);

        assertThat(second.reserve(attempt("quiet", TEN_THEN_SLOW))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(second.reserve(attempt("hammering", null))).isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void theBucketLivesInTheSalesSlotAndExpiresSoonAfterItWouldBeFull() {
        first.reserve(attempt("b", new BucketLimit(10, 5, Duration.ofSeconds(1))));

        String key = RedisKeys.buyerBucket(sale, new BuyerId("b"));
        assertThat(key).startsWith("fs:{" + sale.value() + "}:");
        long ttl = SharedRedis.commands().pttl(key);
        // Full again within 200 ms of one take, kept 5 s more.
        assertThat(ttl).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(6).toMillis());
    }
}
