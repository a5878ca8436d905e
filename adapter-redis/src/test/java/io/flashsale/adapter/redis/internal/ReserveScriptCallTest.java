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
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
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
    void argumentsCarryTheHeaderThenTheAttemptEachValueAsItsOwnEntryAndTheInstantExactly() {
        assertThat(ReserveScriptCall.arguments(REQUEST)).containsExactly(
                "sale", ReserveScriptCall.ATTEMPTS_CLOCK, "", "", "", "", "1",
                "sale.t1", "alice", "r-1", "a:2,b:1", "", "", "",
                Long.toString(AT.getEpochSecond()), "123456789", ReservationRecord.pack(AT));
        assertThat(ReserveScriptCall.arguments(REQUEST, true)).as("Redis TIME judges and stamps it").containsExactly(
                "sale", "", "", "", "", "", "1", "sale.t1", "alice", "r-1", "a:2,b:1", "", "", "");
    }

    @Test
    void anAttemptForAFilterOfKnownShapeCarriesItsKeysWordAndMask() {
        var shape = new FilterShapes.Shape(20_032, 5, AcceptedRequestsFilter.WORD_LAYOUT, 7);
        AcceptedRequestsFilter.Word word = AcceptedRequestsFilter.Word.of("alice:r-1", 20_032, 5);

        var attempt = ReserveScriptCall.Attempt.of(REQUEST, true, shape);
        assertThat(attempt.arguments()).endsWith(word.offset(), word.maskText(),
                Integer.toString(RedisKeys.requestBucketOf("alice:r-1", 7)));
        assertThat(attempt.header()).as("the shape is the call's").endsWith("20032:5:1:7", "1");
        var single = ReserveScriptCall.Attempt.of(REQUEST, true,
                new FilterShapes.Shape(20_032, 5, AcceptedRequestsFilter.WORD_LAYOUT, 0));
        assertThat(single.arguments()).as("a sale of the single hash").endsWith(word.offset(), word.maskText(), "");
        assertThat(single.header()).endsWith("20032:5:1:0", "1");
    }

    @Test
    void anAttemptBehindABucketCarriesItsKeyInTheSalesSlotAndItsFigures_andARefusalItsWait() {
        var behind = REQUEST.behind(new BucketLimit(10, 5, Duration.ofSeconds(1)));

        assertThat(ReserveScriptCall.keys(behind)).hasSize(9).endsWith("fs:{sale}:rl:alice");
        assertThat(ReserveScriptCall.keys(REQUEST)).hasSize(8).endsWith("fs:{sale}:keys");
        assertThat(ReserveScriptCall.Attempt.of(behind, true).header()).as("the bucket's figures are the call's")
                .containsExactly("sale", "", "10", "200000.0", "5000", "", "1");
        assertThat(ReserveScriptCall.arguments(behind, true))
                .hasSize(ReserveScriptCall.HEADER_ARGUMENTS + ReserveScriptCall.ATTEMPT_ARGUMENTS);
        var refused = (ReservationOutcome.RateLimited) ReserveScriptCall.outcome(List.of("RATE_LIMITED", 150_000L),
                behind);
        assertThat(refused.limit()).isEqualTo(AdmissionLimit.BUYER);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofMillis(150));
        assertThat(refused.capacity()).isEqualTo(10);
    }

    @Test
    void aBatchSendsItsHeaderOnceThenItsAttemptsInOrderAndListsTheirBucketKeysInTheSameOrder() {
        var bucket = new BucketLimit(10, 5, Duration.ofSeconds(1));
        var first = ReserveScriptCall.Attempt.of(REQUEST.behind(bucket), true);
        var second = ReserveScriptCall.Attempt.of(request("t2", "bob").behind(bucket), true);
        var third = ReserveScriptCall.Attempt.of(request("t3", "cat").behind(bucket), true);
        List<ReserveScriptCall.Attempt> batch = List.of(first, second, third);

        assertThat(ReserveScriptCall.keys(batch)).hasSize(11)
                .endsWith("fs:{sale}:rl:alice", "fs:{sale}:rl:bob", "fs:{sale}:rl:cat");
        String[] args = ReserveScriptCall.arguments(batch);
        var expected = new ArrayList<>(first.header());
        batch.forEach(attempt -> expected.addAll(List.of(attempt.arguments())));
        assertThat(args).as("the header, then each attempt's block as its caller encoded it").containsExactly(
                expected.toArray(String[]::new));
        assertThat(first.arguments()).hasSize(ReserveScriptCall.ATTEMPT_ARGUMENTS);
        assertThat(first.header()).hasSize(ReserveScriptCall.HEADER_ARGUMENTS);
        assertThat(args[ReserveScriptCall.HEADER_ARGUMENTS]).isEqualTo("sale.t1");
        assertThat(args[ReserveScriptCall.HEADER_ARGUMENTS + 2 * ReserveScriptCall.ATTEMPT_ARGUMENTS])
                .isEqualTo("sale.t3");
        assertThat(first.header().get(1)).as("Redis TIME judges the window and stamps the reservation").isEmpty();
        assertThat(ReserveScriptCall.Attempt.of(REQUEST, false).arguments()).as("the request's instant stamps it")
                .endsWith(ReservationRecord.pack(AT));
    }

    @Test
    void attemptsOfAnotherClockOrBucketDoNotShareACall_attemptsOfAnotherInstantDo() {
        var bucket = new BucketLimit(10, 5, Duration.ofSeconds(1));
        var byRedis = ReserveScriptCall.Attempt.of(REQUEST, true);
        var sameByRedis = ReserveScriptCall.Attempt.of(request("t2", "bob"), true);
        var behindABucket = ReserveScriptCall.Attempt.of(request("t3", "cat").behind(bucket), true);
        var byTheRequest = ReserveScriptCall.Attempt.of(REQUEST, false);
        var aMomentLater = ReserveScriptCall.Attempt.of(new ReservationRequest(ReservationId.of(ACTIVITY, "t4"),
                new BuyerId("dan"), new RequestId("r-4"), REQUEST.lines(), AT.plusNanos(1)), false);

        assertThat(byRedis.sharesCallWith(sameByRedis)).isTrue();
        assertThat(byRedis.sharesCallWith(behindABucket)).isFalse();
        assertThat(byRedis.sharesCallWith(byTheRequest)).isFalse();
        assertThat(byTheRequest.sharesCallWith(aMomentLater)).as("each carries its own instant").isTrue();
        assertThatThrownBy(() -> ReserveScriptCall.arguments(List.of(byRedis, behindABucket)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share its header");
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
    void anAttemptOfASlicedSaleGoesToTheSliceItsIdNames_withTheIdsPrefixAndTheSliceCountInTheHeader() {
        var slice = new SaleSlice(ACTIVITY, 2, new SaleSlices(3));
        var plain = new ReservationRequest(ReservationId.of(slice, "t7"), new BuyerId("alice"), new RequestId("r-7"),
                REQUEST.lines(), AT);
        var sliced = plain.behind(new BucketLimit(10, 5, Duration.ofSeconds(1)));
        String tag = "{" + RedisKeys.tag(slice) + "}";

        var attempt = ReserveScriptCall.Attempt.of(sliced, true);

        assertThat(attempt.slice()).isEqualTo(slice);
        assertThat(attempt.header()).as("what the request index leaves out, and the count the id names")
                .startsWith("sale.2of3").endsWith("3");
        assertThat(attempt.arguments()[0]).isEqualTo("sale.2of3.t7");
        assertThat(ReserveScriptCall.keys(List.of(attempt))).hasSize(9)
                .allSatisfy(key -> assertThat(key).contains(tag))
                .startsWith(RedisKeys.meta(slice)).endsWith(RedisKeys.buyerBucket(slice, new BuyerId("alice")));
        var zero = ReserveScriptCall.Attempt.of(new ReservationRequest(
                ReservationId.of(new SaleSlice(ACTIVITY, 0, new SaleSlices(3)), "t8"), new BuyerId("bob"),
                new RequestId("r-8"), REQUEST.lines(), AT), true);
        assertThat(ReserveScriptCall.keys(List.of(zero))).as("slice 0's keys are the sale's")
                .containsExactly(ReserveScriptCall.keys(ACTIVITY));
        assertThat(zero.sharesCallWith(ReserveScriptCall.Attempt.of(REQUEST, true)))
                .as("an id of another count, on the same keys").isFalse();
        assertThatThrownBy(() -> ReserveScriptCall.arguments(List.of(zero, ReserveScriptCall.Attempt.of(plain, true)))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("one slice");
    }

    @Test
    void aReplyNamingAnotherSliceCountIsNotReady() {
        List<Object> reply = List.of("SLICES", "3");

        assertThat(ReserveScriptCall.namesAnotherSliceCount(reply)).isTrue();
        assertThat(ReserveScriptCall.namesAnotherSliceCount(List.of("NOT_READY"))).isFalse();
        assertThat(ReserveScriptCall.outcome(reply, REQUEST)).isEqualTo(new ReservationOutcome.NotReady());
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
