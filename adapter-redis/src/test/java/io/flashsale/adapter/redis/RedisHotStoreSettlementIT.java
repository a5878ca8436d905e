package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.HotStoreSettlementPort.HeldStatus;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
import io.flashsale.testsupport.CommandStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * settle_batch.lua and restore_batch.lua on the real Redis: a batch confirms and fails in one step, a refused
 * reservation's units and allowance come back exactly once however often the batch is settled, and a batch restore
 * gives closed orders' units back once.
 */
class RedisHotStoreSettlementIT {

    private static final Instant NOW = Instant.now();

    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final RedisHotStoreSettlement settlement = new RedisHotStoreSettlement(SharedRedis.commands(), activityId -> { });
    private final ActivityId activityId = new ActivityId("st-" + UUID.randomUUID().toString().substring(0, 12));

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activityId);
    }

    @Test
    void givenABatch_whenSettledTwice_thenPlacedAreSoldRefusedAreBackOnceAndTheSecondCallChangesNothing() {
        warmUp(ActivityItem.of("a", 10), ActivityItem.of("b", 10));
        Reservation placed = reserve("alice", line("a", 2));
        Reservation refused = reserve("bob", line("a", 1), line("b", 3));

        Map<ReservationId, ReservationStatus> first = settlement.settle(activityId, List.of(placed.id()),
                List.of(refused.id()));
        Map<ReservationId, ReservationStatus> second = settlement.settle(activityId, List.of(placed.id()),
                List.of(refused.id()));

        assertThat(first).containsEntry(placed.id(), ReservationStatus.RESERVED)
                .containsEntry(refused.id(), ReservationStatus.RESERVED);
        assertThat(second).as("a confirmed reservation leaves its record (ADR 71)").doesNotContainKey(placed.id())
                .containsEntry(refused.id(), ReservationStatus.FAILED);
        assertThat(adapter.findReservation(placed.id())).isEmpty();
        assertThat(adapter.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(new SkuId("a"), new StockLedger(10, 0, 2)),
                new SkuStock(new SkuId("b"), StockLedger.of(10)));
        assertThat(adapter.holdings(activityId, new BuyerId("bob"))).isEmpty();
        assertThat(adapter.holdings(activityId, new BuyerId("alice"))).containsEntry(new SkuId("a"), 2L);
        assertThat(adapter.findReservation(refused.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
    }

    @Test
    void givenABatchOfMoreThanOneCall_whenSettled_thenEachIsMovedOnceWhereverTheConfirmedEndAndTheChunksBreak() {
        int chunk = RedisHotStoreSettlement.CHUNK;
        int confirmedCount = chunk + chunk / 2; // the boundary between confirmed and failed falls inside a call
        int failedCount = chunk;
        warmUp(ActivityItem.of("a", confirmedCount + failedCount));
        List<ReservationId> confirmed = new ArrayList<>();
        List<ReservationId> failed = new ArrayList<>();
        for (int i = 0; i < confirmedCount + failedCount; i++) {
            (i < confirmedCount ? confirmed : failed).add(reserve("buyer-" + i, line("a", 1)).id());
        }

        Map<ReservationId, ReservationStatus> first = settlement.settle(activityId, confirmed, failed);
        Map<ReservationId, ReservationStatus> second = settlement.settle(activityId, confirmed, failed);

        assertThat(first).hasSize(confirmedCount + failedCount).containsOnlyKeys(concat(confirmed, failed))
                .allSatisfy((id, before) -> assertThat(before).isEqualTo(ReservationStatus.RESERVED));
        assertThat(confirmed).allSatisfy(id -> assertThat(second).doesNotContainKey(id));
        assertThat(failed).allSatisfy(id -> assertThat(second.get(id)).isEqualTo(ReservationStatus.FAILED));
        assertThat(adapter.stock(activityId).orElseThrow().getFirst().ledger())
                .isEqualTo(new StockLedger(confirmedCount + failedCount, 0, confirmedCount));
        assertThat(adapter.holdings(activityId, new BuyerId("buyer-" + (confirmedCount - 1))))
                .containsEntry(new SkuId("a"), 1L);
        assertThat(adapter.holdings(activityId, new BuyerId("buyer-" + confirmedCount))).isEmpty();
    }

    @Test
    void givenAReservationTheBuyerCancelled_whenSettled_thenLeftAsItIsAndItsStatusAndMomentAreRead() {
        warmUp(ActivityItem.of("a", 10));
        Reservation cancelled = reserve("alice", line("a", 1));
        Instant at = Instant.parse("2031-01-02T03:04:05.123Z");
        adapter.release(cancelled.id(), at);
        ReservationId unknown = ReservationId.of(activityId, "nothere");

        Map<ReservationId, HeldStatus> statuses = settlement.statuses(activityId, List.of(cancelled.id(), unknown));
        Map<ReservationId, ReservationStatus> before = settlement.settle(activityId, List.of(cancelled.id(), unknown),
                List.of());

        assertThat(statuses).containsOnly(Map.entry(cancelled.id(), new HeldStatus(ReservationStatus.CANCELLED, at)));
        assertThat(before).containsOnly(Map.entry(cancelled.id(), ReservationStatus.CANCELLED));
        assertThat(adapter.stock(activityId).orElseThrow().getFirst().ledger()).isEqualTo(StockLedger.of(10));
    }

    @Test
    void givenClosedOrders_whenRestoredAsABatchTwice_thenTheirUnitsComeBackOnceWithEachOnesFinalStatus() {
        warmUp(ActivityItem.of("a", 10));
        Reservation expired = reserve("alice", line("a", 2));
        Reservation cancelled = reserve("bob", line("a", 1));
        Reservation stillReserved = reserve("carol", line("a", 1));
        settlement.settle(activityId, List.of(expired.id(), cancelled.id()), List.of());
        List<PendingRestore> restores = List.of(PendingRestore.of(expired, ReservationStatus.EXPIRED),
                PendingRestore.of(cancelled, ReservationStatus.CANCELLED),
                PendingRestore.of(stillReserved, ReservationStatus.EXPIRED));

        Map<ReservationId, ReservationStatus> first = settlement.restore(activityId, restores);
        Map<ReservationId, ReservationStatus> second = settlement.restore(activityId, restores);

        assertThat(first).containsEntry(expired.id(), ReservationStatus.ORDERED)
                .containsEntry(stillReserved.id(), ReservationStatus.RESERVED);
        assertThat(second).containsEntry(expired.id(), ReservationStatus.EXPIRED)
                .containsEntry(cancelled.id(), ReservationStatus.CANCELLED);
        assertThat(adapter.stock(activityId).orElseThrow().getFirst().ledger()).isEqualTo(new StockLedger(10, 1, 0));
        assertThat(adapter.holdings(activityId, new BuyerId("alice"))).isEmpty();
    }

    @Test
    void givenAnotherActivitysReservation_thenRefusedBeforeRedisIsCalled() {
        ReservationId foreign = ReservationId.of(new ActivityId("other"), "tok");

        assertThatThrownBy(() -> settlement.settle(activityId, List.of(foreign), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> settlement.restore(activityId, List.of(new PendingRestore(foreign,
                new BuyerId("alice"), new RequestId("r"), List.of(line("a", 1)), ReservationStatus.CANCELLED))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenThirtyPlacedAndTwoRefused_whenSettled_thenRecordsAreReadOnceAndEachCounterIsWrittenOnce() {
        warmUp(ActivityItem.of("a", 100));
        var placed = new ArrayList<ReservationId>();
        for (int i = 0; i < 30; i++) {
            placed.add(reserve("buyer-" + i, line("a", 1)).id());
        }
        List<ReservationId> refused = List.of(reserve("ann", line("a", 2)).id(), reserve("bob", line("a", 1)).id());
        var redis = SharedRedis.commands();
        Map<String, Long> before = CommandStats.calls(SharedRedis.commandStatsOf(RedisKeys.stock(activityId)));

        Map<ReservationId, ReservationStatus> statuses = settlement.settle(activityId, placed, refused);

        Map<String, Long> calls = CommandStats.between(before, CommandStats.calls(SharedRedis.commandStatsOf(RedisKeys.stock(activityId))));
        assertThat(statuses).hasSize(32).allSatisfy((id, status) -> assertThat(status).isEqualTo(ReservationStatus.RESERVED));
        // One HMGET of the records; one HINCRBY per moved counter of the SKU (reserved, sold, available, held, version)
        // and per refused buyer's holding; one HDEL of the placed records, one HSET of the refused ones, one HDEL of the
        // in-flight index; the two HGETs check the batch's sums (reserved, then the refused buyers' holdings).
        assertThat(calls).containsEntry("hmget", 1L).containsEntry("hincrby", 7L).containsEntry("hdel", 4L)
                .containsEntry("hset", 1L).containsEntry("hget", 3L);
        assertThat(adapter.stock(activityId).orElseThrow()).extracting(stock -> stock.ledger())
                .containsExactly(new StockLedger(100, 0, 30));
        assertThat(redis.hget(RedisKeys.stock(activityId), "a:held")).isEqualTo("30");
        assertThat(redis.hget(RedisKeys.holdings(activityId), "ann:a")).isNull();
        assertThat(redis.hlen(RedisKeys.inFlight(activityId))).isZero();
        assertThat(redis.hkeys(RedisKeys.reservations(activityId)))
                .containsExactlyInAnyOrderElementsOf(refused.stream().map(ReservationId::value).toList());
        assertThat(adapter.findReservation(refused.get(0)).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
    }

    private void warmUp(ActivityItem... items) {
        adapter.warmUp(new Activity(activityId, "settle", NOW.minus(Duration.ofMinutes(1)), NOW.plus(Duration.ofHours(1)),
                new PurchaseLimit(5), Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(items)));
    }

    private Reservation reserve(String buyer, ReservationLine... lines) {
        ReservationRequest request = new ReservationRequest(ReservationId.of(activityId, UUID.randomUUID().toString()
                .replace("-", "")), new BuyerId(buyer), new RequestId("r-" + UUID.randomUUID()), List.of(lines), NOW);
        return ((ReservationOutcome.Reserved) adapter.reserve(request)).reservation();
    }

    private static List<ReservationId> concat(List<ReservationId> first, List<ReservationId> second) {
        List<ReservationId> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }
}
