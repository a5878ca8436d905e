package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.bootstrap.config.OutboxRegistryProperties;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.bootstrap.testing.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The sale after its first second, over HTTP with the whole pipeline running: payment, cancellation before and after
 * the order, the payment timeout, restored units bought by others, and the archive of an ended sale. MySQL and Redis
 * must agree at the end of each.
 */
class OrderLifecycleIT extends PipelineTestBase {

    private static final Duration POLL = Duration.ofMillis(100);

    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();
    @Autowired
    private OutboxRegistryProperties registry;

    @AfterEach
    void relayRunsAgain() {
        relayLoop.start();
    }

    @Test
    void givenAnOrder_whenItsBuyerPaysTwice_thenItIsPaidOnceAndNoStockMoves() {
        String activityId = openSale(5);
        String id = reserveOne(activityId, "payer");
        JsonNode ordered = awaitStatus(id, "payer", "ORDERED");

        ServiceClient.Reply paid = api().pay(id, "payer");
        ServiceClient.Reply again = api().pay(id, "payer");

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        JsonNode body = paid.json();
        assertThat(body.path("status").asString()).isEqualTo("PAID");
        assertThat(body.path("orderId").asString()).isEqualTo(id);
        JsonNode times = body.path("statusTimes");
        assertThat(times.path("reservedAt").asString()).isEqualTo(ordered.path("statusTimes").path("reservedAt").asString());
        assertThat(times.path("orderedAt").asString()).isEqualTo(ordered.path("statusTimes").path("orderedAt").asString());
        assertThat(Instant.parse(times.path("paidAt").asString()))
                .isAfterOrEqualTo(Instant.parse(times.path("orderedAt").asString()));
        assertThat(times.has("cancelledAt")).isFalse();
        assertThat(times.has("expiredAt")).isFalse();
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("statusTimes").path("paidAt").asString()).isEqualTo(times.path("paidAt").asString());
        assertThat(reservation(id, "payer").path("status").asString()).isEqualTo("PAID");
        assertBooks(activityId, 5, Map.of(ReservationStatus.PAID, 1L), 1);
        assertConflict(api().cancel(id, "payer"), "NOT_CANCELLABLE", "PAID");
        assertThat(api().pay(id, "someone-else").status()).isEqualTo(404);
        assertThat(api().cancel(id, "someone-else").status()).isEqualTo(404);
    }

    @Test
    void givenAnOrder_whenItsBuyerCancels_thenItsUnitsAreBackOnceAndSellableAtOnce() {
        String activityId = openSale(2);
        String id = reserveOne(activityId, "canceller");
        awaitStatus(id, "canceller", "ORDERED");

        ServiceClient.Reply cancelled = api().cancel(id, "canceller");
        ServiceClient.Reply again = api().cancel(id, "canceller");

        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        JsonNode body = cancelled.json();
        assertThat(body.path("status").asString()).isEqualTo("CANCELLED");
        assertThat(body.path("orderId").asString()).as("it was an order").isEqualTo(id);
        assertThat(body.path("statusTimes").has("orderedAt")).isTrue();
        assertThat(body.path("statusTimes").has("cancelledAt")).isTrue();
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("status").asString()).isEqualTo("CANCELLED");
        assertBooks(activityId, 2, Map.of(ReservationStatus.CANCELLED, 1L), 0);
        assertConflict(api().pay(id, "canceller"), "NOT_PAYABLE", "CANCELLED");
        assertBooks(activityId, 2, Map.of(ReservationStatus.CANCELLED, 1L), 0);

        String late = reserveOne(activityId, "late-buyer");
        String rebought = reserveOne(activityId, "canceller");
        assertThat(reserveAsync(activityId, "too-late").join().status()).isEqualTo(409);

        awaitStatus(late, "late-buyer", "ORDERED");
        awaitStatus(rebought, "canceller", "ORDERED");
        assertBooks(activityId, 2, Map.of(ReservationStatus.CANCELLED, 1L, ReservationStatus.ORDERED, 2L), 2);
    }

    @Test
    void givenAReservationCancelledBeforeThePipelineSawIt_whenThePipelineRuns_thenItNeverBecomesAnOrder() {
        relayLoop.stop();
        String activityId = openSale(3);
        ActivityId activity = new ActivityId(activityId);
        String id = reserveOne(activityId, "early");

        ServiceClient.Reply cancelled = api().cancel(id, "early");

        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        assertThat(cancelled.json().path("status").asString()).isEqualTo("CANCELLED");
        assertThat(cancelled.json().has("orderId")).as(cancelled.body()).isFalse();
        assertThat(cancelled.json().path("statusTimes").has("cancelledAt")).isTrue();
        assertThat(redisLedger(activityId).ledger().available()).isEqualTo(3);
        assertThat(redisLedger(activityId).ledger().reserved()).isZero();

        relayLoop.start();

        await().atMost(WITHIN).pollInterval(POLL).untilAsserted(() -> assertThat(figures.orderCountByStatus(activity))
                .as("recorded as cancelled, never ordered").containsExactly(entry(ReservationStatus.CANCELLED, 1L)));
        assertThat(orders.find(new ReservationId(id)).orElseThrow().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertBooks(activityId, 3, Map.of(ReservationStatus.CANCELLED, 1L), 0);
        JsonNode read = reservation(id, "early");
        assertThat(read.path("status").asString()).isEqualTo("CANCELLED");
        assertThat(read.has("orderId")).as(read.toString()).isFalse();
        assertConflict(api().pay(id, "early"), "NOT_PAYABLE", "CANCELLED");
    }

    @Test
    void givenAPaymentTimeoutOfOneSecond_whenTheOrderIsNotPaid_thenItExpiresWithinSecondsAndItsUnitsComeBack() {
        String activityId = api().openSale(2, 1L);
        String id = reserveOne(activityId, "slow-payer");
        awaitStatus(id, "slow-payer", "ORDERED");

        JsonNode expired = await().atMost(Duration.ofSeconds(10)).pollInterval(POLL)
                .until(() -> reservation(id, "slow-payer"), read -> read.path("status").asString().equals("EXPIRED"));

        // The deadline counts from the buyer's answer, not from the order's placement (ADR 82).
        Instant reservedAt = Instant.parse(expired.path("statusTimes").path("reservedAt").asString());
        Instant expiredAt = Instant.parse(expired.path("statusTimes").path("expiredAt").asString());
        assertThat(Duration.between(reservedAt, expiredAt)).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(4));
        assertThat(expired.path("orderId").asString()).isEqualTo(id);
        assertBooks(activityId, 2, Map.of(ReservationStatus.EXPIRED, 1L), 0);
        assertConflict(api().pay(id, "slow-payer"), "NOT_PAYABLE", "EXPIRED");
        assertConflict(api().cancel(id, "slow-payer"), "NOT_CANCELLABLE", "EXPIRED");
        assertBooks(activityId, 2, Map.of(ReservationStatus.EXPIRED, 1L), 0);
        assertThat(restoreRows(id)).isOne();
    }

    @Test
    void givenTenUnitsSoldToTenBuyers_whenThreeCancelAndTwoDoNotPay_thenFiveNewBuyersGetThemAndTheSixthIsRefused() {
        String activityId = api().openSale(10, 5L, 3);
        List<String> ids = new ArrayList<>(reserveOneEach(activityId, 10).keySet());
        ids.forEach(id -> awaitStatus(id, buyerOf(ids, id), "ORDERED"));

        for (String id : ids.subList(0, 3)) {
            assertThat(api().cancel(id, buyerOf(ids, id)).status()).isEqualTo(200);
        }
        for (String id : ids.subList(3, 8)) {
            assertThat(api().pay(id, buyerOf(ids, id)).status()).isEqualTo(200);
        }
        ActivityId activity = new ActivityId(activityId);
        await().atMost(Duration.ofSeconds(15)).pollInterval(POLL).untilAsserted(() ->
                assertThat(figures.orderCountByStatus(activity)).containsOnly(entry(ReservationStatus.PAID, 5L),
                        entry(ReservationStatus.CANCELLED, 3L), entry(ReservationStatus.EXPIRED, 2L)));
        await().atMost(WITHIN).pollInterval(POLL)
                .untilAsserted(() -> assertThat(redisLedger(activityId).ledger().available()).isEqualTo(5));

        List<String> second = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            second.add(reserveOne(activityId, "second-wave-" + i));
        }
        ServiceClient.Reply sixth = reserveAsync(activityId, "second-wave-5").join();

        assertThat(sixth.status()).as(sixth.body()).isEqualTo(409);
        assertThat(sixth.json().path("code").asString()).isEqualTo("SOLD_OUT");
        for (int i = 0; i < 5; i++) {
            awaitStatus(second.get(i), "second-wave-" + i, "ORDERED");
            assertThat(api().pay(second.get(i), "second-wave-" + i).status()).isEqualTo(200);
        }
        assertBooks(activityId, 10, Map.of(ReservationStatus.PAID, 10L, ReservationStatus.CANCELLED, 3L,
                ReservationStatus.EXPIRED, 2L), 10);
    }

    @Test
    void givenASaleThatEnds_whenArchived_thenRefusedUntilItEndedAndNothingIsInFlightThenRedisIsClearedAndMysqlAnswers()
            throws InterruptedException {
        relayLoop.stop();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant endsAt = now.plusSeconds(3);
        String activityId = api().createSale(now.minusSeconds(60), endsAt, 5, null);
        api().warmUp(activityId);
        String id = reserveOne(activityId, "last-buyer");

        ServiceClient.Reply early = archive(activityId);

        assertThat(early.status()).as(early.body()).isEqualTo(409);
        assertThat(early.json().path("code").asString()).isEqualTo("ACTIVITY_NOT_ENDED");
        assertThat(Instant.parse(early.json().path("endsAt").asString())).isEqualTo(endsAt);
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), endsAt).toMillis() + 100));
        ServiceClient.Reply pending = archive(activityId);
        assertThat(pending.status()).as(pending.body()).isEqualTo(409);
        assertThat(pending.json().path("code").asString()).isEqualTo("RESERVATIONS_PENDING");
        assertThat(pending.json().path("pending").asString()).isEqualTo("STILL_RESERVED");
        assertThat(pending.json().path("reservations").asLong()).isOne();

        relayLoop.start();
        awaitStatus(id, "last-buyer", "ORDERED");
        ServiceClient.Reply archived = await().atMost(WITHIN).pollInterval(POLL)
                .until(() -> archive(activityId), reply -> reply.status() != 409);

        assertThat(archived.status()).as(archived.body()).isEqualTo(200);
        assertThat(archived.json().path("activityId").asString()).isEqualTo(activityId);
        String archivedAt = archived.json().path("archivedAt").asString();
        assertThat(Instant.parse(archivedAt)).isAfterOrEqualTo(endsAt.minusMillis(1));
        ServiceClient.Reply again = archive(activityId);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("archivedAt").asString()).isEqualTo(archivedAt);
        assertThat(redis.sync().exists(RedisKeys.activityKeys(new ActivityId(activityId)).toArray(String[]::new)))
                .as("the sale's Redis keys").isZero();
        assertThat(redis.sync().sismember(registry.outboxRegistry(), activityId)).isFalse();

        JsonNode read = reservation(id, "last-buyer");
        assertThat(read.path("status").asString()).isEqualTo("ORDERED");
        assertThat(read.path("statusTimes").has("orderedAt")).isTrue();
        ServiceClient.Reply activity = send("GET", "/api/v1/activities/" + activityId, null);
        assertThat(activity.status()).as(activity.body()).isEqualTo(200);
        assertThat(activity.json().path("items").get(0).path("available").asLong()).isEqualTo(4);
        JsonNode stockOnRecord = asAdmin("GET", "/api/v1/activities/" + activityId + "/stock", null).json();
        assertThat(stockOnRecord.path("items").get(0).path("total").asLong()).isEqualTo(5);
        assertThat(stockOnRecord.path("items").get(0).path("sold").asLong()).isEqualTo(1);
        ServiceClient.Reply warmUp = asAdmin("POST", "/api/v1/activities/" + activityId + "/warm-up", null);
        assertThat(warmUp.status()).as(warmUp.body()).isEqualTo(409);
        assertThat(warmUp.json().path("code").asString()).isEqualTo("ACTIVITY_ARCHIVED");

        ServiceClient.Reply cancelledAfterwards = api().cancel(id, "last-buyer");
        assertThat(cancelledAfterwards.status()).as(cancelledAfterwards.body()).isEqualTo(200);
        assertThat(figures.soldBySku(new ActivityId(activityId))).containsExactly(entry(new SkuId(SKU), 0L));
        assertThat(redis.sync().exists(RedisKeys.activityKeys(new ActivityId(activityId)).toArray(String[]::new)))
                .as("a late cancellation does not bring the keys back").isZero();
    }

    // ---- helpers ----

    private String reserveOne(String activityId, String buyer) {
        ServiceClient.Reply reply = reserveAsync(activityId, buyer).join();
        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        return reply.json().path("reservationId").asString();
    }

    private JsonNode awaitStatus(String reservationId, String buyer, String status) {
        return await().atMost(WITHIN).pollInterval(POLL).until(() -> reservation(reservationId, buyer),
                read -> read.path("status").asString().equals(status));
    }

    private static String buyerOf(List<String> ids, String id) {
        return buyer(ids.indexOf(id));
    }

    private ServiceClient.Reply archive(String activityId) {
        return asAdmin("POST", "/api/v1/activities/" + activityId + "/archive", null);
    }

    private static void assertConflict(ServiceClient.Reply reply, String code, String status) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(409);
        assertThat(reply.json().path("code").asString()).isEqualTo(code);
        assertThat(reply.json().path("reservationStatus").asString()).isEqualTo(status);
    }

    /**
     * The orders by status, and {@code sold} units in MySQL (sold = stock flow = units of orders holding stock) and
     * in Redis (where nothing is left reserved and available + sold = total), awaited while restores finish.
     */
    private void assertBooks(String activityId, long total, Map<ReservationStatus, Long> orderStatuses, long sold) {
        ActivityId activity = new ActivityId(activityId);
        SkuId sku = new SkuId(SKU);
        await().atMost(WITHIN).pollInterval(POLL).untilAsserted(() -> {
            assertThat(figures.orderCountByStatus(activity)).as("orders by status")
                    .containsExactlyInAnyOrderEntriesOf(orderStatuses);
            assertThat(figures.soldBySku(activity)).as("MySQL sold").containsExactly(entry(sku, sold));
            assertThat(figures.stockFlowBySku(activity)).as("stock flow").containsExactly(entry(sku, sold));
            assertThat(figures.orderedUnitsBySku(activity)).as("ordered units").containsExactly(entry(sku, sold));
            var redisLedger = redisLedger(activityId).ledger();
            assertThat(redisLedger.total()).as("Redis total").isEqualTo(total);
            assertThat(redisLedger.reserved()).as("Redis reserved").isZero();
            assertThat(redisLedger.sold()).as("Redis sold").isEqualTo(sold);
            assertThat(redisLedger.available()).as("Redis available").isEqualTo(total - sold);
        });
    }
}
