package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReserveScriptCallTest {

    private static final ActivityId ACTIVITY = new ActivityId("sale");
    private static final Instant AT = Instant.parse("2030-05-01T10:00:00.123456789Z");
    private static final ReservationRequest REQUEST = new ReservationRequest(ReservationId.of(ACTIVITY, "t1"),
            new BuyerId("alice"), new RequestId("r-1"),
            List.of(new ReservationLine(new SkuId("a"), 2), new ReservationLine(new SkuId("b"), 1)), AT);

    @Test
    void argumentsCarryEveryValueAsItsOwnEntryAndTheInstantExactly() {
        assertThat(ReserveScriptCall.arguments(REQUEST)).containsExactly("sale",
                "sale.t1", "alice", "r-1", Long.toString(AT.getEpochSecond()), "123456789",
                ReservationRecord.pack(AT), "a:2,b:1", "", "", "", "", "", "", "");
    }

    @Test
    void anAttemptForAFilterOfKnownShapeCarriesItsKeysWordAndMask() {
        var shape = new FilterShapes.Shape(20_032, 5, AcceptedRequestsFilter.WORD_LAYOUT, 7);
        AcceptedRequestsFilter.Word word = AcceptedRequestsFilter.Word.of("alice:r-1", 20_032, 5);

        assertThat(ReserveScriptCall.Attempt.of(REQUEST, false, shape).arguments()).endsWith(
                "20032:5:1:7", word.offset(), word.maskText(),
                Integer.toString(RedisKeys.requestBucketOf("alice:r-1", 7)));
        assertThat(ReserveScriptCall.Attempt.of(REQUEST, false,
                new FilterShapes.Shape(20_032, 5, AcceptedRequestsFilter.WORD_LAYOUT, 0)).arguments())
                .as("a sale of the single hash").endsWith("20032:5:1:0", word.offset(), word.maskText(), "");
    }

    @Test
    void anAttemptBehindABucketCarriesItsKeyInTheSalesSlotAndItsFigures_andARefusalItsWait() {
        var behind = REQUEST.behind(new BucketLimit(10, 5, Duration.ofSeconds(1)));

        assertThat(ReserveScriptCall.keys(behind)).hasSize(9).endsWith("fs:{sale}:rl:alice");
        assertThat(ReserveScriptCall.keys(REQUEST)).hasSize(8).endsWith("fs:{sale}:keys");
        assertThat(ReserveScriptCall.arguments(behind))
                .as("no index of its bucket key: the script counts them").containsSubsequence("a:2,b:1", "10",
                        "200000.0", "5000", "", "", "", "");
        assertThat(ReserveScriptCall.arguments(behind)).hasSize(1 + ReserveScriptCall.ATTEMPT_ARGUMENTS);
        var refused = (ReservationOutcome.RateLimited) ReserveScriptCall.outcome(List.of("RATE_LIMITED", 150_000L),
                behind);
        assertThat(refused.limit()).isEqualTo(AdmissionLimit.BUYER);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(150));
        assertThat(refused.capacity()).isEqualTo(10);
    }

    @Test
    void aBatchPutsItsAttemptsInOrderAndListsTheBucketKeysOfThoseThatHaveOneInTheSameOrder() {
        var bucket = new BucketLimit(10, 5, Duration.ofSeconds(1));
        var first = ReserveScriptCall.Attempt.of(REQUEST.behind(bucket), true);
        var second = ReserveScriptCall.Attempt.of(request("t2", "bob"), true);
        var third = ReserveScriptCall.Attempt.of(request("t3", "cat").behind(bucket), true);
        List<ReserveScriptCall.Attempt> batch = List.of(first, second, third);

        assertThat(ReserveScriptCall.keys(batch)).hasSize(10).endsWith("fs:{sale}:rl:alice", "fs:{sale}:rl:cat");
        String[] args = ReserveScriptCall.arguments(batch);
        var expected = new ArrayList<>(List.of("sale"));
        batch.forEach(attempt -> expected.addAll(List.of(attempt.arguments())));
        assertThat(args).as("the sale, then each attempt's block as its caller encoded it").containsExactly(
                expected.toArray(String[]::new));
        assertThat(first.arguments()).hasSize(ReserveScriptCall.ATTEMPT_ARGUMENTS);
        assertThat(args[1]).isEqualTo("sale.t1");
        assertThat(args[1 + 2 * ReserveScriptCall.ATTEMPT_ARGUMENTS]).isEqualTo("sale.t3");
        assertThat(List.of(first.arguments()[3], first.arguments()[4], first.arguments()[5]))
                .as("Redis TIME judges the window and stamps the reservation").containsOnly("");
        assertThat(ReserveScriptCall.Attempt.of(REQUEST, false).arguments()[5]).as("the request's instant stamps it")
                .isEqualTo(ReservationRecord.pack(AT));
    }

    @Test
    void anAttemptReservedNowIsAnsweredWithItsInstantAloneAndTheOthersWithTheirCode() {
        String packed = ReservationRecord.pack(AT);
        List<Object> batchReply = List.of(packed, List.of("SOLD_OUT", "a"));

        assertThat(ReserveScriptCall.reply(batchReply, 0)).containsExactly("RESERVED", packed);
        var reserved = (ReservationOutcome.Reserved) ReserveScriptCall.outcome(ReserveScriptCall.reply(batchReply, 0),
                REQUEST);
        assertThat(reserved.reservation().reservedAt()).isEqualTo(AT);
        assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(batchReply, 1), REQUEST))
                .isInstanceOf(ReservationOutcome.SoldOut.class);
    }

    @Test
    void aBatchHoldsOneSale() {
        var other = new ReservationRequest(ReservationId.of(new ActivityId("other"), "t9"), new BuyerId("bob"),
                new RequestId("r-9"), REQUEST.lines(), AT);

        assertThatThrownBy(() -> ReserveScriptCall.arguments(List.of(ReserveScriptCall.Attempt.of(REQUEST, true),
                ReserveScriptCall.Attempt.of(other, true)))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAttemptTheModelRefusesIsTheScriptRefusalException() {
        assertThatThrownBy(() -> ReserveScriptCall.outcome(List.of("REFUSED", "SKU a appears twice"), REQUEST))
                .isInstanceOf(ScriptRefusedException.class)
                .hasMessageContaining("reserve.lua refused: SKU a appears twice");
    }

    private static ReservationRequest request(String id, String buyer) {
        return new ReservationRequest(ReservationId.of(ACTIVITY, id), new BuyerId(buyer), new RequestId("r-" + id),
                REQUEST.lines(), AT);
    }

    @Test
    void repliesBecomeTheOutcomesTheyName() {
        assertThat(ReserveScriptCall.outcome(List.of("RESERVED", ReservationRecord.pack(AT)), REQUEST))
                .isEqualTo(new ReservationOutcome.Reserved(REQUEST.toReservation()));
        Instant redisTime = AT.plusSeconds(600).plusNanos(123_456_000);
        assertThat(ReserveScriptCall.outcome(List.of("RESERVED", ReservationRecord.pack(redisTime)), REQUEST))
                .as("stamped by the script's clock, not the request's")
                .isEqualTo(new ReservationOutcome.Reserved(new Reservation(REQUEST.id(), REQUEST.activityId(),
                        REQUEST.buyerId(), REQUEST.requestId(), REQUEST.lines(), ReservationStatus.RESERVED,
                        redisTime)));
        assertThat(ReserveScriptCall.outcome(List.of("NOT_READY"), REQUEST)).isEqualTo(new ReservationOutcome.NotReady());
        assertThat(ReserveScriptCall.outcome(List.of("NOT_STARTED", "1900000000", "5"), REQUEST))
                .isEqualTo(new ReservationOutcome.NotStarted(Instant.ofEpochSecond(1_900_000_000L, 5)));
        assertThat(ReserveScriptCall.outcome(List.of("ENDED", "1900000000", "0"), REQUEST))
                .isEqualTo(new ReservationOutcome.Ended(Instant.ofEpochSecond(1_900_000_000L)));
        assertThat(ReserveScriptCall.outcome(List.of("UNKNOWN_SKU", "zz"), REQUEST))
                .isEqualTo(new ReservationOutcome.UnknownSku(new SkuId("zz")));
        assertThat(ReserveScriptCall.outcome(List.of("LIMIT_EXCEEDED", "a", 3L, 2L), REQUEST))
                .isEqualTo(new ReservationOutcome.LimitExceeded(new SkuId("a"), 3, 2));
        assertThat(ReserveScriptCall.outcome(List.of("SOLD_OUT", "b"), REQUEST))
                .isEqualTo(new ReservationOutcome.SoldOut(new SkuId("b")));
        assertThat(ReserveScriptCall.outcome(List.of("INSUFFICIENT_STOCK", "a", 1L), REQUEST))
                .isEqualTo(new ReservationOutcome.InsufficientStock(new SkuId("a"), 1));
    }

    @Test
    void aReplayRebuildsTheOriginalReservationFromTheStoredRecord() {
        List<Object> reply = List.of("REPLAYED", "sale.t0", "alice", "r-1", "b:1", "CANCELLED", "2030-05-01T09:59:00.5Z");

        var original = new Reservation(ReservationId.of(ACTIVITY, "t0"), ACTIVITY, new BuyerId("alice"),
                new RequestId("r-1"), List.of(new ReservationLine(new SkuId("b"), 1)), ReservationStatus.CANCELLED,
                Instant.parse("2030-05-01T09:59:00.5Z"));
        assertThat(ReserveScriptCall.outcome(reply, REQUEST)).isEqualTo(new ReservationOutcome.Replayed(original));
    }

    @Test
    void anUnknownReplyIsAnErrorNotARefusal() {
        assertThatThrownBy(() -> ReserveScriptCall.outcome(List.of("MAYBE"), REQUEST))
                .isInstanceOf(IllegalStateException.class);
    }
}
