package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.AcceptedRequestsFilter;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.OutboxEntryDecoder;
import io.flashsale.adapter.redis.internal.ReserveBatcher;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.adapter.redis.internal.ScriptRefusedException;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BucketLimit;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.stock.StockLedger;
import io.flashsale.testsupport.CommandStats;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.KillArgs;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Group commit (ADR 0068): attempts of one sale that arrive while a call of it is in flight go together in the next
 * call of reserve.lua, each judged as a call of its own would judge it; a refusal of one attempt leaves its neighbours
 * alone; a failure of the call reaches every attempt in it.
 */
class RedisReserveGroupCommitIT {

    private static final int THREADS = 48;
    private static final int BUYERS = 2_000;
    private static final SkuId A = new SkuId("a");
    private static final SkuId B = new SkuId("b");
    private static final long A_STOCK = 1_200;
    private static final long B_STOCK = 700;
    private static final int LIMIT = 3;

    private final RedisCommands<String, String> redis = SharedRedis.connection().sync();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final ActivityId activityId = new ActivityId("group-" + UUID.randomUUID().toString().substring(0, 8));

    private record Attempt(ReservationRequest request, ReservationOutcome outcome) {
    }

    @AfterEach
    void forgetTheSale() {
        SharedRedis.forget(activityId);
    }

    private Activity sale(ActivityItem... items) {
        Instant now = Instant.now();
        return new Activity(activityId, "group commit", now.minus(Duration.ofMinutes(1)), now.plus(Duration.ofHours(1)),
                new PurchaseLimit(LIMIT), Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(items));
    }

    private record CountedBatch(List<Object> replies, Map<String, Long> calls) {
    }

    /** One call of reserve.lua for the requests on a fresh sale of SKU b, and the commands Redis ran for it. */
    private CountedBatch reserveInOneCall(long stockOfB, List<ReservationRequest> requests) {
        adapter.warmUp(sale(new ActivityItem(B, stockOfB, null, 1)));
        return oneCall(requests);
    }

    /** One call of reserve.lua for the requests on the warmed-up sale, and the commands Redis ran for it. */
    private CountedBatch oneCall(List<ReservationRequest> requests) {
        LuaScript reserve = LuaScript.load(redis, "reserve");
        List<ReserveScriptCall.Attempt> batch = requests.stream()
                .map(request -> ReserveScriptCall.Attempt.of(request, true)).toList();
        Map<String, Long> before = CommandStats.calls(redis.info("commandstats"));
        List<Object> replies = reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(batch),
                ReserveScriptCall.arguments(batch));
        return new CountedBatch(replies, CommandStats.between(before, CommandStats.calls(redis.info("commandstats"))));
    }

    private List<ReservationRequest> oneUnitOfBEach(int buyers) {
        var requests = new ArrayList<ReservationRequest>();
        for (int i = 0; i < buyers; i++) {
            requests.add(request("buyer-" + i, "k" + i, new ReservationLine(B, 1)));
        }
        return requests;
    }

    private ReservationRequest request(String buyer, String requestId, ReservationLine... lines) {
        return new ReservationRequest(ReservationId.of(activityId, UUID.randomUUID().toString().replace("-", "")),
                new BuyerId(buyer), new RequestId(requestId), List.of(lines), Instant.now());
    }

    @RepeatedTest(6)
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void givenTwoThousandBuyersRacingOverTwoSkus_thenBatchesFormAndEveryAttemptIsJudgedAsIfAlone() throws Exception {
        adapter.warmUp(sale(new ActivityItem(A, A_STOCK, null, 4), new ActivityItem(B, B_STOCK, null, 1)));
        ReserveBatcher.Figures before = adapter.reserveCalls();

        List<Attempt> attempts = race();

        ReserveBatcher.Figures after = adapter.reserveCalls();
        long calls = after.calls() - before.calls();
        assertThat(after.attempts() - before.attempts()).isEqualTo(attempts.size());
        assertThat(calls).as("attempts went together: fewer calls than attempts").isLessThan(attempts.size());
        assertThat(after.largestBatch()).isGreaterThan(1)
                .isLessThanOrEqualTo(RedisStockReservationAdapter.DEFAULT_MAX_BATCH);

        List<Reservation> accepted = attempts.stream().map(Attempt::outcome)
                .filter(ReservationOutcome.Reserved.class::isInstance)
                .map(outcome -> ((ReservationOutcome.Reserved) outcome).reservation()).toList();
        assertExactlyTheStockIsReserved(accepted);
        assertNobodyHoldsOverTheLimitAndHoldingsMatchTheAcceptedAttempts(accepted);
        assertEveryReservationHasItsRecordOutboxEntryAndInFlightEntry(accepted);
        assertRefusedAttemptsWroteNothing(attempts);
    }

    /** Per buyer, one after the other: two SKUs, then more of each, then one of each alone, so limits bite. */
    private List<Attempt> race() throws Exception {
        var attempts = new ConcurrentLinkedQueue<Attempt>();
        var start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(THREADS)) {
            var buyers = new ArrayList<Future<?>>();
            for (int b = 0; b < BUYERS; b++) {
                String buyer = "buyer-" + b;
                buyers.add(threads.submit(() -> {
                    start.await();
                    for (ReservationRequest request : List.of(
                            request(buyer, "r1", new ReservationLine(A, 2), new ReservationLine(B, 1)),
                            request(buyer, "r2", new ReservationLine(B, 2), new ReservationLine(A, 1)),
                            request(buyer, "r3", new ReservationLine(A, 1)),
                            request(buyer, "r4", new ReservationLine(B, 1)))) {
                        attempts.add(new Attempt(request, adapter.reserve(request)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> buyer : buyers) {
                buyer.get(120, TimeUnit.SECONDS);
            }
        }
        return List.copyOf(attempts);
    }

    private void assertExactlyTheStockIsReserved(List<Reservation> accepted) {
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(A_STOCK, A_STOCK, 0), new StockLedger(B_STOCK, B_STOCK, 0));
        assertThat(units(accepted, A)).isEqualTo(A_STOCK);
        assertThat(units(accepted, B)).isEqualTo(B_STOCK);
    }

    private static long units(List<Reservation> reservations, SkuId sku) {
        return reservations.stream().flatMap(reservation -> reservation.lines().stream())
                .filter(line -> line.skuId().equals(sku)).mapToLong(ReservationLine::quantity).sum();
    }

    private void assertNobodyHoldsOverTheLimitAndHoldingsMatchTheAcceptedAttempts(List<Reservation> accepted) {
        Map<String, Long> expected = new HashMap<>();
        for (Reservation reservation : accepted) {
            for (ReservationLine line : reservation.lines()) {
                expected.merge(reservation.buyerId().value() + ":" + line.skuId().value(), (long) line.quantity(),
                        Long::sum);
            }
        }
        Map<String, Long> held = new HashMap<>();
        redis.hgetall(RedisKeys.holdings(activityId)).forEach((field, units) -> held.put(field, Long.parseLong(units)));
        assertThat(held).isEqualTo(expected);
        assertThat(held.values()).allSatisfy(units -> assertThat(units).isBetween(1L, (long) LIMIT));
    }

    private void assertEveryReservationHasItsRecordOutboxEntryAndInFlightEntry(List<Reservation> accepted) {
        Set<String> inOutbox = new HashSet<>();
        for (StreamMessage<String, String> entry : redis.xrange(RedisKeys.outbox(activityId), Range.create("-", "+"))) {
            for (String id : OutboxEntryDecoder.reservationIds(entry.getBody())) {
                assertThat(inOutbox.add(id)).as("each reservation in one entry once").isTrue();
            }
        }
        Set<String> inFlight = redis.hkeys(RedisKeys.inFlight(activityId)).stream().collect(HashSet::new, Set::add,
                Set::addAll);
        Set<String> ids = new HashSet<>();
        for (Reservation reservation : accepted) {
            ids.add(reservation.id().value());
            assertThat(adapter.findReservation(reservation.id())).contains(reservation);
        }
        assertThat(inOutbox).isEqualTo(ids);
        assertThat(inFlight).isEqualTo(ids);
        assertThat(RedisRequestIndex.size(redis, activityId)).isEqualTo(accepted.size());
    }

    private void assertRefusedAttemptsWroteNothing(List<Attempt> attempts) {
        for (Attempt attempt : attempts) {
            if (attempt.outcome() instanceof ReservationOutcome.Reserved) {
                continue;
            }
            assertThat(attempt.outcome()).isInstanceOfAny(ReservationOutcome.SoldOut.class,
                    ReservationOutcome.InsufficientStock.class, ReservationOutcome.LimitExceeded.class);
            ReservationRequest request = attempt.request();
            assertThat(RedisRequestIndex.entry(redis, activityId,
                    request.buyerId().value() + ":" + request.requestId().value())).isNull();
            assertThat(adapter.findReservation(request.id())).isEmpty();
        }
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenABatchWithOneAttemptTheModelRefuses_thenItsNeighboursAreReservedAndItWritesNothing() {
        adapter.warmUp(sale(new ActivityItem(A, 10, null, 3), ActivityItem.of("b", 4)));
        LuaScript reserve = LuaScript.load(redis, "reserve");
        ReservationRequest ann = request("ann", "k1", new ReservationLine(A, 2));
        ReservationRequest bob = request("bob", "k1", new ReservationLine(A, 1));
        ReservationRequest cat = request("cat", "k1", new ReservationLine(B, 1), new ReservationLine(A, 1));
        List<ReserveScriptCall.Attempt> batch = List.of(ReserveScriptCall.Attempt.of(ann, true),
                RedisScriptRefusalIT.attemptWithPairs(bob, "a", "6", "b", "1", "a", "6"),
                ReserveScriptCall.Attempt.of(cat, true));

        List<Object> replies = reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(batch),
                ReserveScriptCall.arguments(batch));

        assertThat(replies).hasSize(3);
        // Stamped by Redis TIME (RedisWindowClockIT), not by the request's instant.
        assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, 0), ann))
                .usingRecursiveComparison().ignoringFields("reservation.reservedAt")
                .isEqualTo(new ReservationOutcome.Reserved(ann.toReservation()));
        assertThatThrownBy(() -> ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, 1), bob))
                .isInstanceOf(ScriptRefusedException.class).hasMessageContaining("appears twice");
        assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, 2), cat))
                .usingRecursiveComparison().ignoringFields("reservation.reservedAt")
                .isEqualTo(new ReservationOutcome.Reserved(cat.toReservation()));
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(10, 3, 0), new StockLedger(4, 1, 0));
        assertThat(adapter.holdings(activityId, bob.buyerId())).isEmpty();
        assertThat(RedisRequestIndex.entries(redis, activityId).keySet()).containsExactlyInAnyOrder("ann:k1", "cat:k1");
        assertThat(redis.xlen(RedisKeys.outbox(activityId))).as("one entry for the call").isEqualTo(1);
        assertThat(OutboxEntryDecoder.reservationIds(redis.xrange(RedisKeys.outbox(activityId), Range.create("-", "+"))
                .getFirst().getBody())).containsExactly(ann.id().value(), cat.id().value());
        assertThat(redis.hkeys(RedisKeys.inFlight(activityId)))
                .containsExactlyInAnyOrder(ann.id().value(), cat.id().value());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenABatchOfFortyAcceptedAttempts_thenEachKeyIsWrittenOnceForTheWholeBatch() {
        List<ReservationRequest> requests = oneUnitOfBEach(40);

        CountedBatch counted = reserveInOneCall(100, requests);

        List<Object> replies = counted.replies();
        Map<String, Long> calls = counted.calls();
        for (int i = 0; i < requests.size(); i++) {
            assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, i), requests.get(i)))
                    .usingRecursiveComparison().ignoringFields("reservation.reservedAt")
                    .isEqualTo(new ReservationOutcome.Reserved(requests.get(i).toReservation()));
        }
        // Per attempt: its request entry and its holding; per batch: Redis TIME, the sale's window and the SKU's
        // figures read once each (ADR 0108), one write per hash (the request index: one per bucket the batch reached,
        // ADR 0100; a sale of 100 units has 4; the stock hash: every counter the batch moved, at its new value), the
        // filter's header, then its words read and written (ADR 83), and one outbox entry holding every reservation
        // with its record, in the attempts' order (ADR 107).
        long buckets = requests.stream().map(request -> RedisKeys.requestKey(activityId, 4,
                RedisKeys.requestField(request.buyerId(), request.requestId()))).distinct().count();
        assertThat(RedisRequestIndex.buckets(redis, activityId)).isEqualTo(4);
        assertThat(calls).containsEntry("hget", 80L).containsEntry("time", 1L).containsEntry("xadd", 1L)
                .containsEntry("hmget", 2L).containsEntry("hset", 4L + buckets).containsEntry("bitfield", 3L)
                .doesNotContainKey("hincrby");
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(100, 40, 0));
        assertThat(redis.hget(RedisKeys.stock(activityId), "b:version")).isEqualTo("40");
        assertThat(redis.hget(RedisKeys.stock(activityId), "b:held")).isEqualTo("40");
        assertThat(redis.hlen(RedisKeys.holdings(activityId))).isEqualTo(40);
        assertThat(redis.hlen(RedisKeys.inFlight(activityId))).isEqualTo(40);
        List<StreamMessage<String, String>> outbox = redis.xrange(RedisKeys.outbox(activityId), Range.create("-", "+"));
        assertThat(outbox).hasSize(1);
        assertThat(outbox.getFirst().getBody().keySet())
                .containsExactlyElementsOf(requests.stream().map(request -> request.id().value()).toList());
        assertThat(outbox.getFirst().getBody().values()).containsExactlyElementsOf(
                requests.stream().map(request -> redis.hget(RedisKeys.reservations(activityId), request.id().value()))
                        .toList());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenABatchTooLargeForOneWritePerKey_thenItsWritesGoInSeveralCallsAndNoneIsLost() {
        List<ReservationRequest> requests = oneUnitOfBEach(1_100);

        Map<String, Long> calls = reserveInOneCall(100_000, requests).calls();

        // 1,100 keys' words are more arguments than one call takes (lib/ledger.lua's FS_ARGUMENTS_PER_CALL, a
        // thousand words): the header, then the words read in two calls and written in two.
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(100_000);
        assertThat(requests.stream().map(request -> AcceptedRequestsFilter.Word.of(RedisKeys.requestField(
                request.buyerId(), request.requestId()), size.bits(), size.hashes()).index()).distinct().count())
                .isGreaterThan(1_000);
        assertThat(calls.get("bitfield")).isEqualTo(5L);
        AcceptedRequestsSnapshotPort filter = new RedisAcceptedRequests(redis).read(activityId).orElseThrow();
        assertThat(requests).allSatisfy(request ->
                assertThat(filter.mayHold(request.buyerId(), request.requestId())).isTrue());
        assertThat(redis.hlen(RedisKeys.reservations(activityId))).isEqualTo(1_100);
        assertThat(RedisRequestIndex.size(redis, activityId)).isEqualTo(1_100);
        assertThat(redis.hlen(RedisKeys.holdings(activityId))).isEqualTo(1_100);
        assertThat(redis.hlen(RedisKeys.inFlight(activityId))).isEqualTo(1_100);
        assertThat(redis.xlen(RedisKeys.outbox(activityId))).as("one entry for the call").isEqualTo(1);
        assertThat(OutboxReservations.ids(redis, activityId)).hasSize(1_100);
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(100_000, 1_100, 0));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenOneCallOverASegmentedSkuAndAnother_thenEachCounterIsWrittenOnceAtTheValueItsAttemptsReached() {
        adapter.warmUp(sale(new ActivityItem(A, 10, null, 4), new ActivityItem(B, 5, null, 1)));
        Map<String, String> before = redis.hgetall(RedisKeys.stock(activityId));
        List<ReservationRequest> requests = List.of(request("ann", "k1", new ReservationLine(A, 3)),
                request("bob", "k1", new ReservationLine(A, 3), new ReservationLine(B, 2)),
                request("cat", "k1", new ReservationLine(A, 3)),
                request("eve", "k1", new ReservationLine(A, 2)),
                request("dan", "k1", new ReservationLine(B, 3)));

        CountedBatch counted = oneCall(requests);

        List<Object> replies = counted.replies();
        Map<String, Long> calls = counted.calls();
        List<ReservationOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            outcomes.add(ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, i), requests.get(i)));
        }
        // A's 10 over 4 segments: ann, bob and cat 3 each, then eve's 2 exceed the 1 left; B's 5: bob 2, dan's 3 fit.
        assertThat(outcomes).extracting(outcome -> outcome.getClass().getSimpleName())
                .containsExactly("Reserved", "Reserved", "Reserved", "InsufficientStock", "Reserved");
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(10, 9, 0), new StockLedger(5, 5, 0));
        Map<String, String> after = redis.hgetall(RedisKeys.stock(activityId));
        long availableOfA = 0;
        for (int s = 1; s <= 4; s++) {
            availableOfA += Long.parseLong(after.get("a:avail:" + s));
        }
        assertThat(availableOfA).isEqualTo(1);
        assertThat(after).containsEntry("a:held", "9").containsEntry("b:held", "5").containsEntry("b:avail:1", "0")
                .containsEntry("a:version", String.valueOf(versionOf(before, "a") + 3))
                .containsEntry("b:version", String.valueOf(versionOf(before, "b") + 2));
        // The sale's window, then each SKU once (A's other segments in a second); A's cursor moves per accepted line.
        assertThat(calls).as("one read of each SKU, one write of the stock hash")
                .containsEntry("hmget", 4L).containsEntry("hincrby", 3L);
    }

    private static long versionOf(Map<String, String> stock, String sku) {
        return Long.parseLong(stock.getOrDefault(sku + ":version", "0"));
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenACallOfMoreReservationsThanOneOutboxEntryTakes_thenTheyGoInSeveralEntriesInOrderAndNoneIsLost() {
        List<ReservationRequest> requests = oneUnitOfBEach(2_001);

        reserveInOneCall(100_000, requests);

        // An id and its record are two of lib/ledger.lua's FS_ARGUMENTS_PER_CALL (4,000) arguments an XADD takes.
        assertThat(redis.xrange(RedisKeys.outbox(activityId), Range.create("-", "+")))
                .extracting(entry -> entry.getBody().size()).containsExactly(2_000, 1);
        assertThat(OutboxReservations.ids(redis, activityId))
                .containsExactlyElementsOf(requests.stream().map(request -> request.id().value()).toList());
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenOneBuyerThriceInABatch_thenTheRetryReplaysTheFirstAndTheNextKeySeesItsHolding() {
        adapter.warmUp(sale(new ActivityItem(A, 10, null, 2)));
        LuaScript reserve = LuaScript.load(redis, "reserve");
        ReservationRequest first = request("ann", "k1", new ReservationLine(A, 2));
        ReservationRequest retry = new ReservationRequest(ReservationId.of(activityId, "retry"), first.buyerId(),
                first.requestId(), first.lines(), first.at());
        ReservationRequest more = request("ann", "k2", new ReservationLine(A, 2));
        List<ReserveScriptCall.Attempt> batch = List.of(ReserveScriptCall.Attempt.of(first, true),
                ReserveScriptCall.Attempt.of(retry, true), ReserveScriptCall.Attempt.of(more, true));

        List<Object> replies = reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(batch),
                ReserveScriptCall.arguments(batch));

        var reserved = (ReservationOutcome.Reserved) ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, 0), first);
        assertThat(reserved).usingRecursiveComparison().ignoringFields("reservation.reservedAt")
                .isEqualTo(new ReservationOutcome.Reserved(first.toReservation()));
        assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, 1), retry)).as("the same instant replayed")
                .isEqualTo(new ReservationOutcome.Replayed(reserved.reservation()));
        assertThat(ReserveScriptCall.outcome(ReserveScriptCall.reply(replies, 2), more))
                .isInstanceOf(ReservationOutcome.LimitExceeded.class);
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(10, 2, 0));
        assertThat(redis.hget(RedisKeys.holdings(activityId), "ann:a")).isEqualTo("2");
        assertThat(redis.xlen(RedisKeys.outbox(activityId))).isEqualTo(1);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void givenArgumentsThatDoNotSplitIntoAttempts_thenTheWholeCallIsRefusedAndNothingIsWritten() {
        adapter.warmUp(sale(new ActivityItem(A, 10, null, 3)));
        LuaScript reserve = LuaScript.load(redis, "reserve");
        List<ReserveScriptCall.Attempt> batch = List.of(
                ReserveScriptCall.Attempt.of(request("ann", "k1", new ReservationLine(A, 1)), true));
        String[] args = ReserveScriptCall.arguments(batch);
        String[] cut = Arrays.copyOf(args, args.length - 1);

        assertThatThrownBy(() -> reserve.run(redis, ScriptOutputType.MULTI, ReserveScriptCall.keys(batch), cut))
                .isInstanceOf(ScriptRefusedException.class).hasMessageContaining("does not fit");

        assertThat(adapter.stock(activityId).orElseThrow().getFirst().ledger()).isEqualTo(StockLedger.of(10));
        assertThat(RedisRequestIndex.size(redis, activityId)).isZero();
        assertThat(redis.exists(RedisKeys.outbox(activityId))).isZero();
    }

    /**
     * The connection is made to wait at the server behind a BLPOP, a first attempt goes out alone and waits behind it,
     * the others queue; a second BLPOP is written after the first attempt, so when the first BLPOP is let go, the
     * batch of the others goes out and waits behind the second. Then the server drops the connection.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void givenABatchInFlight_whenTheConnectionIsLost_thenEveryAttemptInItFailsAsAnOutageAndNoneWasDecided()
            throws Exception {
        RedisClient client = RedisClient.create(TestServices.redis().uri());
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS).build());
        try (StatefulRedisConnection<String, String> connection = client.connect();
             ExecutorService threads = Executors.newFixedThreadPool(24)) {
            var own = new RedisStockReservationAdapter(ConnectionCommands.of(connection), SharedRedis.registry(),
                    id -> { }, id -> { }, true, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
            StockReservationPort port = HotStoreOutages.translating(own);
            own.warmUp(sale(new ActivityItem(A, 1_000, null, 1)));
            String first = "gate-1-" + UUID.randomUUID();
            String second = "gate-2-" + UUID.randomUUID();
            long clientId = connection.sync().clientId();
            connection.async().blpop(30, first);

            ReservationRequest solo = request("solo", "k", new ReservationLine(A, 1));
            Future<ReservationOutcome> alone = threads.submit(() -> port.reserve(solo));
            waitFor(() -> own.reserveCalls().calls() == 1);
            connection.async().blpop(30, second);
            List<ReservationRequest> queued = new ArrayList<>();
            List<Future<ReservationOutcome>> batch = new ArrayList<>();
            for (int b = 0; b < 20; b++) {
                ReservationRequest request = request("queued-" + b, "k", new ReservationLine(A, 1));
                queued.add(request);
                batch.add(threads.submit(() -> port.reserve(request)));
            }
            Thread.sleep(1_000);
            assertThat(own.reserveCalls().calls()).as("the others wait for the first").isEqualTo(1);

            redis.lpush(first, "go");
            assertThat(alone.get(10, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
            waitFor(() -> own.reserveCalls().calls() >= 2);
            assertThat(own.reserveCalls().largestBatch()).as("the others went as one batch").isGreaterThan(1);
            redis.clientKill(KillArgs.Builder.id(clientId));

            for (Future<ReservationOutcome> attempt : batch) {
                assertThatThrownBy(() -> attempt.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(StoreUnavailableException.class);
            }
            for (ReservationRequest request : queued) {
                assertThat(RedisRequestIndex.entry(redis, activityId, request.buyerId().value() + ":k")).isNull();
            }
            assertThat(RedisRequestIndex.size(redis, activityId)).isEqualTo(1);
        } finally {
            client.shutdown();
        }
    }

    /**
     * A call's attempts share its header (ADR 105): attempts behind a buyer's bucket and attempts with none, queued
     * behind a call in flight, go in one call per run of equal headers, in arrival order; judged by the service's
     * clock, each attempt of a call is stamped by its own instant.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void givenQueuedAttemptsWithAndWithoutABucket_thenEachRunOfOneHeaderGoesInOneCallInArrivalOrder() throws Exception {
        RedisClient client = RedisClient.create(TestServices.redis().uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            var own = new RedisStockReservationAdapter(ConnectionCommands.of(connection), SharedRedis.registry(),
                    id -> { }, id -> { }, false, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
            own.warmUp(sale(new ActivityItem(A, 1_000, null, 1)));
            String gate = "gate-" + UUID.randomUUID();
            connection.async().blpop(30, gate);
            var bucket = new BucketLimit(10, 5, Duration.ofSeconds(1));
            List<Boolean> behindABucket = List.of(false, false, false, true, true, false);
            Instant first = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            Map<ReservationRequest, ReservationOutcome> outcomes = new ConcurrentHashMap<>();
            List<Thread> callers = new ArrayList<>();
            for (int i = 0; i < behindABucket.size(); i++) {
                ReservationRequest request = new ReservationRequest(ReservationId.of(activityId,
                        UUID.randomUUID().toString().replace("-", "")), new BuyerId("buyer-" + i), new RequestId("k"),
                        List.of(new ReservationLine(A, 1)), first.plusMillis(i));
                ReservationRequest sent = behindABucket.get(i) ? request.behind(bucket) : request;
                Thread caller = Thread.ofPlatform().start(() -> outcomes.put(sent, own.reserve(sent)));
                callers.add(caller);
                // Queued (or, the first, in flight behind the gate) before the next one arrives.
                waitFor(() -> caller.getState() == Thread.State.TIMED_WAITING);
            }
            assertThat(own.reserveCalls().calls()).as("the first in flight, the others queued").isEqualTo(1);

            redis.lpush(gate, "go");
            for (Thread caller : callers) {
                caller.join(Duration.ofSeconds(10));
            }

            assertThat(own.reserveCalls().calls()).as("the first alone, then [none, none], [bucket, bucket], [none]")
                    .isEqualTo(4);
            assertThat(own.reserveCalls().largestBatch()).isEqualTo(2);
            assertThat(outcomes).as("each reserved, stamped by its own instant").hasSize(behindABucket.size())
                    .allSatisfy((request, outcome) -> assertThat(outcome)
                            .isEqualTo(new ReservationOutcome.Reserved(request.toReservation())));
        } finally {
            client.shutdown();
        }
    }

    /**
     * The connection waits at the server behind a BLPOP longer than its command timeout: the attempt in flight and the
     * ones queued behind it each fail as the synchronous call did, a command timeout, which the port reports as an
     * outage, and none waits much longer than the timeout for it.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void givenRedisNotAnsweringWithinTheTimeout_thenTheCallInFlightAndTheQueuedAttemptsFailAsATimeout()
            throws Exception {
        RedisClient client = RedisClient.create(TestServices.redis().uri());
        try (StatefulRedisConnection<String, String> connection = client.connect();
             ExecutorService threads = Executors.newFixedThreadPool(12)) {
            connection.setTimeout(Duration.ofMillis(300));
            var slow = new RedisStockReservationAdapter(ConnectionCommands.of(connection), SharedRedis.registry(),
                    id -> { }, id -> { }, true, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
            StockReservationPort slowPort = HotStoreOutages.translating(slow);
            slow.warmUp(sale(new ActivityItem(A, 1_000, null, 1)));
            String gate = "gate-" + UUID.randomUUID();
            connection.async().blpop(5, gate);

            List<Future<ReservationOutcome>> attempts = new ArrayList<>();
            long started = System.nanoTime();
            for (int b = 0; b < 10; b++) {
                ReservationRequest request = request("late-" + b, "k", new ReservationLine(A, 1));
                attempts.add(threads.submit(() -> slowPort.reserve(request)));
            }
            for (Future<ReservationOutcome> attempt : attempts) {
                assertThatThrownBy(() -> attempt.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(StoreUnavailableException.class)
                        .satisfies(failed -> assertThat(failed.getCause().getCause())
                                .isInstanceOf(RedisCommandTimeoutException.class));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("the timeout is 300 ms: a queued attempt waits for it once, not for the BLPOP's 5 s")
                    .isLessThan(Duration.ofSeconds(3));
            assertThat(slow.reserveCalls().calls()).isPositive();
            redis.lpush(gate, "go");
        } finally {
            client.shutdown();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void givenTheStoresHotPath_whenBuyersReserveAloneAndTogether_thenItsFiguresCountEveryCallAndEveryAttempt()
            throws Exception {
        String registry = SharedRedis.newRegistry();
        RedisHotStore store = RedisHotStore.connect(SharedRedis.settings(Duration.ofSeconds(5)), registry);
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            StockReservationPort hotPath = store.reservationRoles().hotPath();
            hotPath.warmUp(sale(new ActivityItem(B, 10_000, null, 1)));
            for (int i = 0; i < 3; i++) {
                assertThat(hotPath.reserve(request("alone-" + i, "k", new ReservationLine(B, 1))))
                        .isInstanceOf(ReservationOutcome.Reserved.class);
            }
            assertThat(store.reserveCalls()).as("nothing else in flight: each attempt a call of its own")
                    .isEqualTo(new RedisHotStore.ReserveCalls(3, 3));

            CountDownLatch start = new CountDownLatch(1);
            List<Future<ReservationOutcome>> together = new ArrayList<>();
            for (int i = 0; i < THREADS * 10; i++) {
                ReservationRequest request = request("together-" + i, "k", new ReservationLine(B, 1));
                together.add(threads.submit(() -> {
                    start.await();
                    return hotPath.reserve(request);
                }));
            }
            start.countDown();
            for (Future<ReservationOutcome> attempt : together) {
                assertThat(attempt.get(30, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
            }
            RedisHotStore.ReserveCalls figures = store.reserveCalls();
            assertThat(figures.attempts()).isEqualTo(3 + THREADS * 10L);
            assertThat(figures.calls()).as("attempts that queued behind a call went together")
                    .isGreaterThan(3).isLessThan(figures.attempts());
        } finally {
            threads.shutdownNow();
            store.close();
            SharedRedis.forgetRegistry(registry);
        }
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 10 s");
            }
            Thread.sleep(5);
        }
    }
}
