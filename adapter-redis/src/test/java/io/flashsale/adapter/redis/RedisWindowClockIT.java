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
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One clock for the sale window and for the instant a reservation is answered (ADR 0082): instances whose own clocks
 * are hours apart get the same answer, Redis TIME's. The
 * adapter the tests build directly keeps judging by the request's instant, which is how the contract suite moves
 * the clock.
 */
class RedisWindowClockIT {

    private static final SkuId SKU = new SkuId("unit");
    private static final Duration SKEW = Duration.ofHours(2);

    private final RedisStockReservationAdapter instanceAhead = new RedisStockReservationAdapter(
            SharedRedis.connectionCommands(), SharedRedis.registry(), activityId -> { },
            activityId -> { }, true, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
    private final RedisStockReservationAdapter instanceBehind = new RedisStockReservationAdapter(
            SharedRedis.connectionCommands(), SharedRedis.registry(), activityId -> { },
            activityId -> { }, true, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
    private final List<ActivityId> sales = new ArrayList<>();

    @AfterEach
    void forget() {
        sales.forEach(SharedRedis::forget);
    }

    private ActivityId sale(Instant startsAt, Instant endsAt) {
        var id = new ActivityId("clk-" + UUID.randomUUID().toString().substring(0, 12));
        sales.add(id);
        instanceAhead.warmUp(new Activity(id, "clock", startsAt, endsAt, PurchaseLimit.ONE, Duration.ofMinutes(15),
                List.of(ActivityItem.of(SKU.value(), 10))));
        return id;
    }

    /** Redis TIME now, as the script reads it. */
    private static Instant redisTime() {
        List<String> time = SharedRedis.commands().time();
        return Instant.ofEpochSecond(Long.parseLong(time.get(0)), Long.parseLong(time.get(1)) * 1000);
    }

    private static ReservationOutcome attempt(RedisStockReservationAdapter instance, ActivityId sale, String buyer,
                                              Instant instanceClock) {
        var id = ReservationId.of(sale, UUID.randomUUID().toString().replace("-", ""));
        return instance.reserve(new ReservationRequest(id, new BuyerId(buyer), new RequestId("k-" + buyer),
                List.of(new ReservationLine(SKU, 1)), instanceClock));
    }

    @Test
    void givenAnOpenSale_whenOneInstanceIsHoursAheadAndAnotherHoursBehind_thenBothReserve() {
        Instant now = Instant.now();
        ActivityId open = sale(now.minusSeconds(60), now.plusSeconds(3600));

        assertThat(attempt(instanceAhead, open, "ahead", now.plus(SKEW))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(attempt(instanceBehind, open, "behind", now.minus(SKEW)))
                .isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenASaleNotStartedByRedisTime_whenAnInstanceClockSaysItIsOpen_thenNotStarted() {
        Instant now = Instant.now();
        Instant startsAt = now.plusSeconds(3600);
        ActivityId later = sale(startsAt, now.plusSeconds(7200));

        assertThat(attempt(instanceAhead, later, "ahead", startsAt.plusSeconds(60)))
                .isEqualTo(new ReservationOutcome.NotStarted(startsAt));
        assertThat(attempt(instanceBehind, later, "behind", now.minus(SKEW)))
                .isEqualTo(new ReservationOutcome.NotStarted(startsAt));
    }

    @Test
    void givenASaleEndedByRedisTime_whenAnInstanceClockSaysItIsOpen_thenEnded() {
        Instant now = Instant.now();
        Instant endsAt = now.minusSeconds(1);
        ActivityId over = sale(now.minusSeconds(3600), endsAt);

        assertThat(attempt(instanceBehind, over, "behind", now.minus(SKEW).plusSeconds(3599)))
                .isEqualTo(new ReservationOutcome.Ended(endsAt));
    }

    @Test
    void givenInstancesHoursApart_whenEachReserves_thenTheReservationAndItsEventAreStampedByRedisTime() {
        Instant now = Instant.now();
        ActivityId open = sale(now.minusSeconds(60), now.plusSeconds(3600));
        Instant before = redisTime();

        var ahead = (ReservationOutcome.Reserved) attempt(instanceAhead, open, "ahead", now.plus(SKEW));
        var behind = (ReservationOutcome.Reserved) attempt(instanceBehind, open, "behind", now.minus(SKEW));

        Instant after = redisTime();
        for (var reserved : List.of(ahead, behind)) {
            Instant answeredAt = reserved.reservation().reservedAt();
            assertThat(answeredAt).as("the buyer's answer: Redis TIME, not the instance's clock")
                    .isBetween(before, after);
            assertThat(instanceAhead.findReservation(reserved.reservation().id()).orElseThrow().reservedAt())
                    .as("the record").isEqualTo(answeredAt);
        }
        List<StreamMessage<String, String>> events = SharedRedis.commands()
                .xrange(RedisKeys.outbox(open), Range.create("-", "+"));
        assertThat(events).flatExtracting(event -> event.getBody().values()).extracting(record -> ReservationRecord
                        .decode(record).reservedAt())
                .as("the outbox events the order's deadline is counted from")
                .containsExactly(ahead.reservation().reservedAt(), behind.reservation().reservedAt());
    }

    @Test
    void givenTheTestAdapter_whenTheRequestsInstantIsMoved_thenItJudgesTheWindowByThatInstant() {
        Instant now = Instant.now();
        Instant endsAt = now.plusSeconds(3600);
        ActivityId open = sale(now.minusSeconds(60), endsAt);

        assertThat(attempt(SharedRedis.adapter(), open, "moved", endsAt)).isEqualTo(new ReservationOutcome.Ended(endsAt));
    }
}
