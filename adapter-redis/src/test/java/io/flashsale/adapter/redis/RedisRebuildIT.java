package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ScriptReplies;
import io.flashsale.adapter.redis.internal.ScriptRefusedException;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.service.KnownRefusals;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.ScriptOutputType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bounded rebuild on the real Redis (ADR 31): begin drops whatever a loss left, pages of MySQL's orders become
 * records, request index entries, sold units and holdings, finish writes the totals and ready last; a half-done
 * rebuild is never served, a stale runner's steps write nothing, and a taken-over rebuild resumes after its cursor.
 */
@Timeout(60)
class RedisRebuildIT extends HotStoreSaleTestBase {

    private static final Instant SINCE = Instant.parse("2030-01-01T00:00:00Z");

    private final Activity sale = saleOf("rebuild", new ActivityItem(A, 30, null, 3), new ActivityItem(B, 4, 2, 1));
    private final List<SkuRebuild> totals = List.of(new SkuRebuild(A, 30, 0, Map.of(), Set.of(3L)),
            new SkuRebuild(B, 4, 0, Map.of(), Set.of()));

    RedisRebuildIT() {
        super("rb");
    }

    @Test
    void givenALostActivity_whenRebuiltInPages_thenItIsNotReadyUntilFinishedAndThenSellsFromTheOrders() {
        Order annsOrder = order(ANN, ReservationStatus.ORDERED, line(A, 3), line(B, 1));
        Order bobsPaid = order(BOB, ReservationStatus.PAID, line(A, 2));
        Order bobsExpired = order(BOB, ReservationStatus.EXPIRED, line(A, 4));
        Order annsFailed = order(ANN, ReservationStatus.FAILED, line(B, 2));

        RebuildStart.Started started = begin();
        assertThat(hotStoreRebuild.rebuildPage(activityId, started.rebuildId(), Optional.empty(), bobsPaid.id(),
                List.of(annsOrder, bobsPaid))).isTrue();
        assertThat(attempt(ANN, "mid-rebuild", line(A, 1))).as("a half-done rebuild is never served")
                .isEqualTo(new ReservationOutcome.NotReady());
        assertThat(hotStoreRebuild.beginRebuild(activityId, SINCE)).isEqualTo(new RebuildStart.Rebuilding());
        assertThat(hotStoreRebuild.rebuildPage(activityId, started.rebuildId(), Optional.of(bobsPaid.id()),
                annsFailed.id(), List.of(bobsExpired, annsFailed))).isTrue();
        assertThat(hotStoreRebuild.finishRebuild(sale, started.rebuildId(), totals)).isTrue();

        assertThat(stock.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(A, new StockLedger(30, 0, 5)), new SkuStock(B, new StockLedger(4, 0, 1)));
        assertThat(stock.holdings(activityId, ANN)).isEqualTo(Map.of(A, 3L, B, 1L));
        assertThat(stock.holdings(activityId, BOB)).isEqualTo(Map.of(A, 2L));
        // What the hot store keeps of a settled reservation (ADR 71): no record of an ordered or paid one, the final
        // status letter of a closed one, the record of a failed one; every request's entry.
        assertThat(stock.findReservation(annsOrder.id())).isEmpty();
        assertThat(stock.findReservation(bobsPaid.id())).isEmpty();
        assertThat(stock.findReservation(bobsExpired.id())).isEmpty();
        assertThat(redis.hget(RedisKeys.reservations(activityId), bobsExpired.id().value())).isEqualTo("E");
        assertThat(stock.findReservation(annsFailed.id())).contains(annsFailed.toReservation());
        assertThat(attempt(BOB, bobsExpired.requestId().value(), line(A, 1)))
                .as("a retry of an order's request: the application answers it with the order MySQL holds")
                .isEqualTo(new ReservationOutcome.Settled(bobsExpired.id()));
        assertThat(attempt(ANN, annsOrder.requestId().value(), line(A, 1)))
                .isEqualTo(new ReservationOutcome.Settled(annsOrder.id()));
        assertThat(stock.restore(PendingRestore.of(bobsExpired))).as("closed before the rebuild: nothing given twice")
                .contains(ReservationStatus.EXPIRED);
        assertThat(stock.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(A, new StockLedger(30, 0, 5)), new SkuStock(B, new StockLedger(4, 0, 1)));
        assertThat(hotStoreAdjustments.adjust(activityId, A, 1, 3)).isEqualTo(new LedgerAdjustment.AlreadyApplied());
        assertThat(attempt(ANN, "more", line(A, 3))).isEqualTo(new ReservationOutcome.LimitExceeded(A, 5, 3));
        assertThat(attempt(ANN, "fresh", line(A, 2))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(redis.sismember(SharedRedis.registry(), activityId.value())).isTrue();
        assertThat(redis.hkeys(RedisKeys.meta(activityId))).doesNotContain("rebuilding", "rebuildCursor");

        assertThat(hotStoreRebuild.beginRebuild(activityId, SINCE)).isEqualTo(new RebuildStart.Loaded());
        assertThat(hotStoreRebuild.finishRebuild(sale, started.rebuildId(), totals)).as("finished steps write nothing")
                .isFalse();
    }

    @Test
    void givenAPartialLossWithSurvivingRecordsRequestIndexAndOutbox_whenRebuilt_thenNothingThatSurvivedActsOnTheLedger() {
        stock.warmUp(sale);
        Reservation ordered = reserve(ANN, line(A, 2));
        stock.confirm(ordered.id());
        Reservation expiredSinceInMySql = reserve(BOB, line(A, 1));
        Reservation neverReachedMySql = reserve(new BuyerId("cid"), line(B, 1));
        relayEverything();
        // The loss: the ledger and meta are gone, the records, holdings, request index and outbox survived.
        redis.del(RedisKeys.meta(activityId), RedisKeys.stock(activityId));

        rebuild(List.of(asOrder(ordered, ReservationStatus.ORDERED), asOrder(expiredSinceInMySql,
                ReservationStatus.EXPIRED)));

        assertThat(stock.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(A, new StockLedger(30, 0, 2)), new SkuStock(B, new StockLedger(4, 0, 0)));
        assertThat(stock.release(expiredSinceInMySql.id())).as("a surviving RESERVED record MySQL closed").isFalse();
        assertThat(stock.release(neverReachedMySql.id())).as("a record MySQL never had is gone").isFalse();
        assertThat(stock.findReservation(neverReachedMySql.id())).isEmpty();
        assertThat(stock.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(A, new StockLedger(30, 0, 2)), new SkuStock(B, new StockLedger(4, 0, 0)));
        assertThat(attempt(BOB, expiredSinceInMySql.requestId().value(), line(A, 1)))
                .isEqualTo(new ReservationOutcome.Settled(expiredSinceInMySql.id()));
        assertThat(stock.holdings(activityId, new BuyerId("cid"))).isEmpty();
        assertThat(redis.xlen(RedisKeys.outbox(activityId))).as("no surviving entry can be relayed again").isZero();
        assertThat(RedisRequestIndex.size(redis, activityId)).isEqualTo(2);
        // Closed in MySQL after the rebuild: the restore finds no record, the request entry, and gives back once.
        PendingRestore closedAfter = PendingRestore.of(ordered, ReservationStatus.EXPIRED);
        assertThat(stock.restore(closedAfter)).contains(ReservationStatus.ORDERED);
        assertThat(stock.restore(closedAfter)).contains(ReservationStatus.EXPIRED);
        assertThat(stock.stock(activityId).orElseThrow().getFirst().ledger()).isEqualTo(StockLedger.of(30));
    }

    @Test
    void givenAPartialLoss_whenRebuilt_thenTheAcceptedKeysAreUnusableUntilFinishedAndThenEveryRebuiltKeyIsReplayed() {
        stock.warmUp(sale);
        Reservation ordered = reserve(ANN, line(B, 2));
        stock.confirm(ordered.id());
        relayEverything();
        var acceptedKeys = new RedisAcceptedRequests(redis);
        assertThat(acceptedKeys.read(activityId).orElseThrow().mayHold(ANN, ordered.requestId())).isTrue();
        redis.del(RedisKeys.meta(activityId), RedisKeys.stock(activityId));
        // Accepted before an earlier loss: only MySQL knows the key, the filter this loss left never held it.
        Order onlyInMySql = order(new BuyerId("cid"), ReservationStatus.ORDERED, line(B, 1));

        RebuildStart.Started started = begin();
        assertThat(acceptedKeys.read(activityId)).as("being refilled").isEmpty();
        assertThat(hotStoreRebuild.rebuildPage(activityId, started.rebuildId(), Optional.empty(), onlyInMySql.id(),
                List.of(onlyInMySql, asOrder(ordered, ReservationStatus.ORDERED)))).isTrue();
        assertThat(acceptedKeys.read(activityId)).as("being refilled").isEmpty();
        assertThat(hotStoreRebuild.finishRebuild(sale, started.rebuildId(), totals)).isTrue();

        var read = acceptedKeys.read(activityId).orElseThrow();
        assertThat(read.mayHold(new BuyerId("cid"), onlyInMySql.requestId())).isTrue();
        assertThat(read.mayHold(ANN, ordered.requestId())).isTrue();
        var known = KnownRefusals.remembering(Duration.ofMinutes(5), Duration.ofMillis(100), acceptedKeys,
                Duration.ZERO);
        ReservationService service = ReservationServices.over(stock, known, Clock.systemUTC(),
                List.of(onlyInMySql, asOrder(ordered, ReservationStatus.ORDERED)));
        assertThat(service.reserve(keyed(BOB, "last-unit"))).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(service.reserve(keyed(BOB, "sold-out"))).isEqualTo(new ReservationOutcome.SoldOut(B));
        assertThat(service.reserve(keyed(new BuyerId("cid"), onlyInMySql.requestId().value())))
                .isEqualTo(new ReservationOutcome.Replayed(onlyInMySql.toReservation()));
        assertThat(service.reserve(keyed(ANN, ordered.requestId().value())))
                .isEqualTo(new ReservationOutcome.Replayed(asOrder(ordered, ReservationStatus.ORDERED).toReservation()));
        assertThat(service.reserve(keyed(new BuyerId("dan"), "never-sent"))).isEqualTo(new ReservationOutcome.SoldOut(B));
    }

    @Test
    void givenALossThatTookTheAcceptedKeysToo_whenRebuilt_thenTheSaleHasNoneAndKeyedAttemptsAskRedis() {
        stock.warmUp(sale);
        Reservation ordered = reserve(ANN, line(B, 2));
        stock.confirm(ordered.id());
        relayEverything();
        redis.del(RedisRequestIndex.saleKeys(redis, activityId).toArray(String[]::new));

        rebuild(List.of(asOrder(ordered, ReservationStatus.ORDERED)));

        assertThat(redis.exists(RedisKeys.acceptedRequests(activityId))).isZero();
        assertThat(new RedisAcceptedRequests(redis).read(activityId)).isEmpty();
    }

    private ReserveStockCommand keyed(BuyerId buyer, String key) {
        return new ReserveStockCommand(activityId, buyer, new RequestId(key), List.of(line(B, 1)));
    }

    @Test
    void givenReservationsStillInTheOutbox_whenARebuildBegins_thenItWaitsAndDropsNothing() {
        stock.warmUp(sale);
        Reservation waiting = reserve(ANN, line(A, 1));
        redis.del(RedisKeys.meta(activityId));

        assertThat(hotStoreRebuild.beginRebuild(activityId, SINCE)).isEqualTo(new RebuildStart.OutboxPending());

        assertThat(stock.findReservation(waiting.id())).isPresent();
        assertThat(redis.xlen(RedisKeys.outbox(activityId))).isEqualTo(1);
        relayEverything();
        assertThat(hotStoreRebuild.beginRebuild(activityId, SINCE)).isInstanceOf(RebuildStart.Started.class);
    }

    @Test
    void givenARunnerThatStoppedBeating_whenTakenOver_thenItsStepsWriteNothingAndTheNewOneResumesAfterTheCursor() {
        Order first = order(ANN, ReservationStatus.ORDERED, line(A, 1));
        Order second = order(BOB, ReservationStatus.ORDERED, line(A, 2));
        RebuildStart.Started dead = begin();
        assertThat(hotStoreRebuild.rebuildPage(activityId, dead.rebuildId(), Optional.empty(), first.id(),
                   List.of(first)))
                .isTrue();
        redis.hset(RedisKeys.meta(activityId), "rebuildBeat", Long.toString(Instant.now().getEpochSecond() - 60));

        RebuildStart.Started taker = (RebuildStart.Started) hotStoreRebuild.beginRebuild(activityId,
                                      SINCE.plusSeconds(99));

        assertThat(taker.after()).contains(first.id());
        assertThat(taker.since()).as("the catch-up still looks from the first start").isEqualTo(SINCE);
        assertThat(hotStoreRebuild.rebuildPage(activityId, dead.rebuildId(), Optional.of(first.id()), second.id(),
                List.of(second))).isFalse();
        assertThat(hotStoreRebuild.rebuildPage(activityId, taker.rebuildId(), Optional.empty(), first.id(),
                   List.of(first)))
                .as("a page behind the cursor is never counted twice").isFalse();
        assertThat(hotStoreRebuild.finishRebuild(sale, dead.rebuildId(), totals)).isFalse();
        assertThat(hotStoreRebuild.rebuildPage(activityId, taker.rebuildId(), Optional.of(first.id()), second.id(),
                List.of(second))).isTrue();
        assertThat(hotStoreRebuild.finishRebuild(sale, taker.rebuildId(), totals)).isTrue();
        assertThat(stock.stock(activityId).orElseThrow().getFirst().ledger()).isEqualTo(new StockLedger(30, 0, 3));
    }

    @Test
    void givenOrdersHoldingMoreThanTheTotal_whenFinished_thenRefusedAndNeverReady() {
        Order tooMany = order(ANN, ReservationStatus.ORDERED, line(B, 5));
        RebuildStart.Started started = begin();
        hotStoreRebuild.rebuildPage(activityId, started.rebuildId(), Optional.empty(), tooMany.id(), List.of(tooMany));

        assertThatThrownBy(() -> hotStoreRebuild.finishRebuild(sale, started.rebuildId(), totals))
                .isInstanceOf(ScriptRefusedException.class).hasMessageContaining("b: orders hold 5");
        assertThat(attempt(BOB, "x", line(A, 1))).isEqualTo(new ReservationOutcome.NotReady());
    }

    @Test
    void givenASaleRecordedAsPaused_whenRebuilt_thenItIsPausedWhenReadyAndResumedByTheNextRebuildOfARecordNotPaused() {
        RebuildStart.Started started = begin();
        assertThat(hotStoreRebuild.finishRebuild(sale.pause(), started.rebuildId(), totals)).isTrue();

        assertThat(attempt(ANN, "paused", line(A, 1))).as("ADR 79: the record's pause comes back with the sale")
                .isEqualTo(new ReservationOutcome.Paused());
        assertThat(stock.stock(activityId).orElseThrow().getFirst().ledger().available()).isEqualTo(30);

        redis.del(RedisKeys.meta(activityId));
        RebuildStart.Started again = begin();
        assertThat(hotStoreRebuild.finishRebuild(sale, again.rebuildId(), totals)).isTrue();
        assertThat(attempt(ANN, "resumed", line(A, 1))).isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenALossThatTookMeta_whenRebuilt_thenNoBucketOfTheLostIndexIsLeftToAnswerARetry() {
        stock.warmUp(sale);
        Reservation lost = reserve(ANN, line(A, 1));
        relayEverything();
        assertThat(RedisRequestIndex.buckets(redis, activityId)).isEqualTo(2);
        // The loss took meta (and its bucket count) and the ledger; the index's buckets survived.
        redis.del(RedisKeys.meta(activityId), RedisKeys.stock(activityId));

        RebuildStart.Started started = begin();

        assertThat(redis.exists(RedisKeys.requestBucket(activityId, 1), RedisKeys.requestBucket(activityId, 2),
                RedisKeys.requestsDrop(activityId))).as("every bucket a sale may have is dropped").isZero();
        assertThat(hotStoreRebuild.finishRebuild(sale, started.rebuildId(), totals)).isTrue();
        assertThat(attempt(ANN, lost.requestId().value(), line(A, 1)))
                .as("MySQL never had it: a new reservation, not the lost one replayed")
                .isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenABeginWhoseRunnerStoppedBeforeTheDropEnded_thenNoPageIsWrittenUntilATakeOverFinishesIt() {
        stock.warmUp(sale);
        Reservation lost = reserve(ANN, line(A, 1));
        Reservation ordered = reserve(BOB, line(A, 2));
        relayEverything();
        // A loss that left meta (and its bucket count) but took its mark of a loaded sale and the ledger.
        redis.hdel(RedisKeys.meta(activityId), "ready");
        redis.del(RedisKeys.stock(activityId));
        List<Object> reply = LuaScript.load(redis, "rebuild_begin").run(redis, ScriptOutputType.MULTI,
                RedisHotStoreRebuild.beginKeys(activityId), RedisKeys.OUTBOX_GROUP,
                Long.toString(RedisHotStoreRebuild.REBUILD_LEASE_SECONDS), Long.toString(SINCE.toEpochMilli()));
        String stopped = ScriptReplies.text(reply, 1);
        Order order = asOrder(ordered, ReservationStatus.ORDERED);

        assertThat(RedisRequestIndex.entries(redis, activityId)).as("no count in meta while the drop is unfinished")
                .isEmpty();
        assertThat(attempt(ANN, lost.requestId().value(), line(A, 1))).isEqualTo(new ReservationOutcome.NotReady());
        assertThat(hotStoreRebuild.rebuildPage(activityId, stopped, Optional.empty(), order.id(), List.of(order)))
                .as("the drop is unfinished").isFalse();
        assertThat(hotStoreRebuild.finishRebuild(sale, stopped, totals)).isFalse();
        redis.hset(RedisKeys.meta(activityId), "rebuildBeat", "0");

        RebuildStart.Started takenOver = begin();

        assertThat(redis.exists(RedisKeys.requestsDrop(activityId))).isZero();
        assertThat(RedisRequestIndex.buckets(redis, activityId)).as("the count back for the pages").isEqualTo(2);
        assertThat(RedisRequestIndex.size(redis, activityId)).isZero();
        assertThat(hotStoreRebuild.rebuildPage(activityId, takenOver.rebuildId(), Optional.empty(), order.id(),
                List.of(order))).isTrue();
        assertThat(hotStoreRebuild.finishRebuild(sale, takenOver.rebuildId(), totals)).isTrue();
        assertThat(attempt(BOB, ordered.requestId().value(), line(A, 2)))
                .isEqualTo(new ReservationOutcome.Settled(ordered.id()));
        assertThat(attempt(ANN, lost.requestId().value(), line(A, 1))).isInstanceOf(ReservationOutcome.Reserved.class);
    }

    private RebuildStart.Started begin() {
        RebuildStart start = hotStoreRebuild.beginRebuild(activityId, SINCE);
        assertThat(start).isInstanceOf(RebuildStart.Started.class);
        return (RebuildStart.Started) start;
    }

    /** The whole rebuild, one order per page. */
    private void rebuild(List<Order> orders) {
        RebuildStart.Started started = begin();
        Optional<ReservationId> after = Optional.empty();
        for (Order order : orders.stream().sorted((x, y) -> x.id().value().compareTo(y.id().value())).toList()) {
            assertThat(hotStoreRebuild.rebuildPage(activityId, started.rebuildId(), after, order.id(),
                       List.of(order))).isTrue();
            after = Optional.of(order.id());
        }
        assertThat(hotStoreRebuild.finishRebuild(sale, started.rebuildId(), totals)).isTrue();
    }

    /** A relay reads and acknowledges every entry of the outbox: all of it is in Kafka now. */
    private void relayEverything() {
        List<OutboxEntry> read = outbox.readNew(activityId, "relay-1", 100);
        assertThat(read).isNotEmpty();
        outbox.acknowledge(activityId, read);
    }

    private Order order(BuyerId buyer, ReservationStatus status, ReservationLine... lines) {
        String token = UUID.randomUUID().toString().replace("-", "");
        Reservation reservation = new Reservation(ReservationId.of(activityId, token), activityId, buyer,
                new RequestId("q" + token.substring(0, 8)), List.of(lines), ReservationStatus.RESERVED, Instant.now());
        return asOrder(reservation, status);
    }

    /** The order MySQL holds for a reservation, in the given status (times at its millisecond precision). */
    private static Order asOrder(Reservation reservation, ReservationStatus status) {
        Instant at = reservation.reservedAt().truncatedTo(ChronoUnit.MILLIS);
        boolean failed = status == ReservationStatus.FAILED;
        boolean closed = status != ReservationStatus.ORDERED && !failed;
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(), status,
                failed ? OrderRefusal.OUT_OF_STOCK : null, at, at, failed ? null : at, closed ? at : null);
    }
}
