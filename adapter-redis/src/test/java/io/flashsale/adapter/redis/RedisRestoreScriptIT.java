package io.flashsale.adapter.redis;

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
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * restore.lua and mark_paid.lua on the real Redis, beyond the contract: what they leave in the hashes, that they create
 * nothing for a reservation Redis does not hold (an archived activity stays deleted), and that instances restoring
 * one order over their own connections at once give its units back exactly once.
 */
class RedisRestoreScriptIT {

    private static final Instant NOW = Instant.now();
    private static final int INSTANCES = 6;

    private static final List<SharedRedis.Connection> CONNECTIONS = new ArrayList<>();
    private static final List<RedisStockReservationAdapter> INSTANCE_ADAPTERS = new ArrayList<>();

    private final RedisClusterCommands<String, String> redis = SharedRedis.commands();
    private final RedisStockReservationAdapter adapter = SharedRedis.adapter();
    private final ActivityId activityId = new ActivityId("rs-" + UUID.randomUUID().toString().substring(0, 12));

    @BeforeAll
    static void connectOneAdapterPerInstance() {
        for (int instance = 0; instance < INSTANCES; instance++) {
            SharedRedis.Connection connection = SharedRedis.connect();
            CONNECTIONS.add(connection);
            INSTANCE_ADAPTERS.add(SharedRedis.adapter(connection.commands(), SharedRedis.registry()));
        }
    }

    @AfterAll
    static void disconnect() {
        CONNECTIONS.forEach(SharedRedis.Connection::close);
    }

    @AfterEach
    void forgetTheActivity() {
        SharedRedis.forget(activityId);
    }

    private void warmUp(ActivityItem... items) {
        adapter.warmUp(new Activity(activityId, "restore", NOW.minus(Duration.ofMinutes(1)), NOW.plus(Duration.ofHours(1)),
                new PurchaseLimit(3), Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(items)));
    }

    private Reservation ordered(String buyer, ReservationLine... lines) {
        ReservationRequest request = new ReservationRequest(ReservationId.of(activityId, UUID.randomUUID().toString()
                .replace("-", "")), new BuyerId(buyer), new RequestId("r-" + UUID.randomUUID()), List.of(lines), NOW);
        Reservation reservation = ((ReservationOutcome.Reserved) adapter.reserve(request)).reservation();
        assertThat(adapter.confirm(reservation.id())).isTrue();
        return reservation;
    }

    private static ReservationLine line(String sku, int quantity) {
        return new ReservationLine(new SkuId(sku), quantity);
    }

    @Test
    void whenRestored_thenSoldFallsAvailableRisesInTheFirstSegmentTheHoldingFieldGoesAndTheStatusIsFinal() {
        warmUp(new ActivityItem(new SkuId("seg"), 8, null, 4), ActivityItem.of("solo", 2));
        Reservation reservation = ordered("alice", line("seg", 3), line("solo", 1));
        Map<String, String> before = redis.hgetall(RedisKeys.stock(activityId));

        assertThat(adapter.restore(PendingRestore.of(reservation, ReservationStatus.EXPIRED)))
                .contains(ReservationStatus.ORDERED);

        Map<String, String> after = redis.hgetall(RedisKeys.stock(activityId));
        assertThat(after.get("seg:sold")).isEqualTo("0");
        assertThat(Long.parseLong(after.get("seg:avail:1"))).isEqualTo(Long.parseLong(before.get("seg:avail:1")) + 3);
        assertThat(after.get("seg:avail:2")).isEqualTo(before.get("seg:avail:2"));
        assertThat(after.get("solo:sold")).isEqualTo("0");
        assertThat(redis.hexists(RedisKeys.holdings(activityId), "alice:seg")).isFalse();
        assertThat(redis.hexists(RedisKeys.holdings(activityId), "alice:solo")).isFalse();
        assertThat(redis.hget(RedisKeys.reservations(activityId), reservation.id().value()))
                .as("what is left of a restored order: its final status letter (ADR 71)").isEqualTo("E");
        assertThat(adapter.findReservation(reservation.id())).isEmpty();
        assertThat(adapter.cancelledAt(reservation.id())).isEmpty();
        assertThat(adapter.stock(activityId).orElseThrow()).containsExactly(
                new SkuStock(new SkuId("seg"), StockLedger.of(8)), new SkuStock(new SkuId("solo"), StockLedger.of(2)));
    }

    @Test
    void givenAReservationRedisDoesNotHold_whenRestoredOrMarkedPaid_thenFalseAndNoKeyIsCreated() {
        ReservationId archived = ReservationId.of(activityId, "gone");

        assertThat(adapter.restore(new PendingRestore(archived, new BuyerId("alice"), new RequestId("k"),
                List.of(line("solo", 1)), ReservationStatus.CANCELLED))).isEmpty();
        assertThat(adapter.markPaid(archived)).isFalse();
        assertThat(adapter.release(archived, NOW)).isFalse();

        assertThat(redis.exists(RedisKeys.stock(activityId), RedisKeys.holdings(activityId),
                RedisKeys.reservations(activityId))).isZero();
        assertThat(adapter.cancelledAt(archived)).isEmpty();
    }

    @Test
    void givenAReleaseByTheBuyer_thenItsMomentIsStoredExactlyInTheReservationsRecord() {
        warmUp(ActivityItem.of("solo", 2));
        ReservationRequest request = new ReservationRequest(ReservationId.of(activityId, "tok1"), new BuyerId("alice"),
                new RequestId("k"), List.of(line("solo", 1)), NOW);
        adapter.reserve(request);
        Instant at = Instant.parse("2031-01-02T03:04:05.123456789Z");

        assertThat(adapter.release(request.id(), at)).isTrue();

        assertThat(redis.hget(RedisKeys.reservations(activityId), request.id().value())).as("as the codec writes it")
                .isEqualTo(ReservationRecord.of(request.toReservation()).withStatus(ReservationStatus.CANCELLED)
                        .withCancelledAt(at).encode());
        assertThat(adapter.cancelledAt(request.id())).contains(at);
    }

    @RepeatedTest(10)
    void givenOneOrder_whenSixInstancesRestoreItAtOnceOverTheirOwnConnections_thenExactlyOneGivesTheUnitsBack()
            throws Exception {
        warmUp(new ActivityItem(new SkuId("hot"), 5, null, 3));
        Reservation contested = ordered("alice", line("hot", 2));
        ordered("bob", line("hot", 1));
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Boolean>> answers = new ArrayList<>();

        try (ExecutorService pool = Executors.newFixedThreadPool(INSTANCES)) {
            for (int instance = 0; instance < INSTANCES; instance++) {
                RedisStockReservationAdapter own = INSTANCE_ADAPTERS.get(instance);
                ReservationStatus finalStatus = instance % 2 == 0 ? ReservationStatus.CANCELLED : ReservationStatus.EXPIRED;
                answers.add(pool.submit(() -> {
                    start.await();
                    return own.restore(PendingRestore.of(contested, finalStatus))
                            .equals(Optional.of(ReservationStatus.ORDERED));
                }));
            }
            start.countDown();
            List<Boolean> restored = new ArrayList<>();
            for (Future<Boolean> answer : answers) {
                restored.add(answer.get(30, TimeUnit.SECONDS));
            }
            assertThat(restored).containsOnlyOnce(true);
        }

        assertThat(adapter.stock(activityId).orElseThrow())
                .containsExactly(new SkuStock(new SkuId("hot"), new StockLedger(5, 0, 1)));
        assertThat(adapter.holdings(activityId, new BuyerId("alice"))).isEmpty();
        assertThat(adapter.holdings(activityId, new BuyerId("bob"))).containsOnly(Map.entry(new SkuId("hot"), 1L));
    }
}
