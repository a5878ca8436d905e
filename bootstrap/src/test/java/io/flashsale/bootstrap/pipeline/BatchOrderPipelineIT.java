package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationMessageCodec;
import io.flashsale.application.order.port.in.PlaceOrderBatchUseCase;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.core.KafkaTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The batched order pipeline on real Redis, MariaDB and Kafka. Batches are handed to the batch use case directly
 * (the relay is stopped while a test builds them, so the listener cannot interleave), except the poison record,
 * which goes through the topic and the batch listener. Redis and MySQL are made to disagree by editing MySQL, the
 * way a lost or replayed move would.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BatchOrderPipelineIT extends PipelineTestBase {

    @Autowired
    PlaceOrderBatchUseCase placeOrders;
    @Autowired
    KafkaTemplate<String, String> kafka;

    @BeforeEach
    void relayStopped() {
        relayLoop.stop();
    }

    @AfterEach
    void relayRunsAgain() {
        // The outbox entries of these tests then reach the listener, which must find them settled.
        relayLoop.start();
    }

    @Test
    void givenABatchWithDuplicates_whenPlaced_thenOneOrderEachAndTheRepeatsAnswerAlreadyPlaced() {
        String sale = openSale(10);
        List<Reservation> reserved = reserve(sale, 3);
        List<Reservation> batch = List.of(reserved.get(0), reserved.get(1), reserved.get(0), reserved.get(2),
                reserved.get(1));

        List<OrderPlacement> placements = placeOrders.placeOrders(batch);

        assertThat(placements).extracting(p -> p.getClass().getSimpleName())
                .containsExactly("Placed", "Placed", "AlreadyPlaced", "Placed", "AlreadyPlaced");
        assertThat(placements.get(2).order().id()).isEqualTo(reserved.get(0).id());
        assertSettled(sale, 10, 3, 0);
    }

    @Test
    void givenAWholeBatchThatWasCommitted_whenDeliveredAgain_thenNothingDoublesAndRedisIsCaughtUp() {
        String sale = openSale(10);
        List<Reservation> batch = reserve(sale, 4);
        placeOrders.placeOrders(batch);
        double duplicatesBefore = orders("duplicate");

        List<OrderPlacement> again = placeOrders.placeOrders(batch);

        assertThat(again).allSatisfy(p -> assertThat(p).isInstanceOf(OrderPlacement.AlreadyPlaced.class));
        assertThat(orders("duplicate") - duplicatesBefore).isEqualTo(4);
        assertSettled(sale, 10, 4, 0);
    }

    @Test
    void givenStockThatRunsOutInTheMiddleOfABatch_whenPlaced_thenExactlyThatManyOrdersAndTheRestFailedWithUnitsBack() {
        String sale = openSale(10);
        List<Reservation> batch = reserve(sale, 6);
        // MySQL has 4 units where Redis still shows 10: the fifth and sixth of the batch find none.
        sql().update("UPDATE activity_item SET stock = 4 WHERE activity_id = ?", sale);

        List<OrderPlacement> placements = placeOrders.placeOrders(batch);

        assertThat(placements.subList(0, 4)).allSatisfy(p -> assertThat(p).isInstanceOf(OrderPlacement.Placed.class));
        assertThat(placements.subList(4, 6)).allSatisfy(p -> {
            assertThat(p).isInstanceOf(OrderPlacement.Refused.class);
            assertThat(p.order().failureReason()).isEqualTo(OrderRefusal.OUT_OF_STOCK);
        });
        assertThat(figures.soldBySku(new ActivityId(sale))).containsExactly(entry(new SkuId(SKU), 4L));
        SkuStock redis = redisLedger(sale);
        assertThat(redis.ledger().reserved()).as("Redis reserved").isZero();
        assertThat(redis.ledger().sold()).as("Redis sold").isEqualTo(4);
        assertThat(redis.ledger().available()).as("the failed units are back in Redis").isEqualTo(6);
        for (Reservation failed : batch.subList(4, 6)) {
            assertThat(heldReservations.findReservation(failed.id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
            assertThat(stock.holdings(failed.activityId(), failed.buyerId())).as("holdings of " + failed.buyerId())
                    .isEmpty();
        }
    }

    @Test
    void givenAPoisonEvent_whenPlacedAndDeliveredAgain_thenFailedAtOnceAndItsUnitsBackExactlyOnce() {
        String sale = openSale(10);
        List<Reservation> batch = reserve(sale, 3);
        // The database will refuse the second one for good: its buyer already holds the limit there.
        sql().update("INSERT INTO buyer_purchase (activity_id, buyer_id, sku_id, quantity) VALUES (?, ?, ?, 1)",
                sale, batch.get(1).buyerId().value(), SKU);

        List<OrderPlacement> first = placeOrders.placeOrders(batch);
        List<OrderPlacement> again = placeOrders.placeOrders(batch);

        assertThat(first.get(1)).isInstanceOf(OrderPlacement.Refused.class);
        assertThat(first.get(1).order().failureReason()).isEqualTo(OrderRefusal.LIMIT_EXCEEDED);
        assertThat(again.get(1)).isInstanceOf(OrderPlacement.AlreadyPlaced.class);
        SkuStock redis = redisLedger(sale);
        assertThat(redis.ledger().reserved()).isZero();
        assertThat(redis.ledger().sold()).isEqualTo(2);
        assertThat(redis.ledger().available()).as("one unit back, once").isEqualTo(8);
        assertThat(heldReservations.findReservation(batch.get(1).id()).orElseThrow().status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(reservation(batch.get(1).id().value(), batch.get(1).buyerId().value()).path("status").asString())
                .isEqualTo("FAILED");
    }

    @Test
    void givenTwoReservationsOfOneBuyerThatTogetherPassTheLimitInMysql_whenPlacedInOneBatch_thenTheSecondIsRefused() {
        String sale = saleOf(2, "{\"skuId\":\"" + SKU + "\",\"stock\":10}");
        Reservation first = reserveAs(sale, "alice", Map.of(SKU, 1));
        Reservation second = reserveAs(sale, "alice", Map.of(SKU, 1));
        // MySQL counts one unit more for alice than Redis does: together the two pass her limit of 2 there.
        sql().update("INSERT INTO buyer_purchase (activity_id, buyer_id, sku_id, quantity) VALUES (?, 'alice', ?, 1)",
                sale, SKU);

        List<OrderPlacement> placements = placeOrders.placeOrders(List.of(first, second));

        assertThat(placements.get(0)).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(placements.get(1).order().failureReason()).isEqualTo(OrderRefusal.LIMIT_EXCEEDED);
        assertThat(sql().queryForObject("SELECT quantity FROM buyer_purchase WHERE activity_id = ? AND buyer_id = "
                + "'alice' AND sku_id = ?", Long.class, sale, SKU)).isEqualTo(2L);
        assertThat(stock.holdings(new ActivityId(sale), first.buyerId())).containsExactly(entry(new SkuId(SKU), 1L));
    }

    @Test
    void givenAMultiSkuReservationThatFailsOnOneLine_whenPlaced_thenItTakesNothingAndItsNeighboursArePlaced() {
        String sale = saleOf(3, "{\"skuId\":\"" + SKU + "\",\"stock\":10}", "{\"skuId\":\"extra\",\"stock\":10}");
        Reservation before = reserveAs(sale, "bob", Map.of("extra", 1));
        Reservation both = reserveAs(sale, "alice", Map.of(SKU, 2, "extra", 2));
        Reservation after = reserveAs(sale, "carol", Map.of(SKU, 1));
        // MySQL has one "extra" left after bob's: alice's second line cannot be honoured there.
        sql().update("UPDATE activity_item SET stock = 2 WHERE activity_id = ? AND sku_id = 'extra'", sale);

        List<OrderPlacement> placements = placeOrders.placeOrders(List.of(before, both, after));

        assertThat(placements).extracting(p -> p.getClass().getSimpleName())
                .containsExactly("Placed", "Refused", "Placed");
        assertThat(placements.get(1).order().failureReason()).isEqualTo(OrderRefusal.OUT_OF_STOCK);
        assertThat(figures.soldBySku(new ActivityId(sale)))
                .containsOnly(entry(new SkuId(SKU), 1L), entry(new SkuId("extra"), 1L));
        assertThat(sql().queryForObject("SELECT COUNT(*) FROM stock_flow WHERE reservation_id = ?", Long.class,
                both.id().value())).isZero();
        assertThat(stock.holdings(new ActivityId(sale), both.buyerId())).isEmpty();
        assertThat(stock.stock(new ActivityId(sale)).orElseThrow()).allSatisfy(sku ->
                assertThat(sku.ledger().reserved()).as(sku.skuId().value()).isZero());
    }

    @Test
    void givenAPoisonRecordInTheMiddleOfABatch_whenConsumed_thenItIsDeadLetteredAndEveryNeighbourPlacedOnce() {
        String sale = openSale(10);
        List<Reservation> reserved = reserve(sale, 4);
        double deadLettersBefore = meters.counter("flashsale.orders.dead_lettered").count();
        ReservationMessageCodec codec = new ReservationMessageCodec();
        // One partition, so the four records are one ordered run that the listener polls together or in parts.
        List<String> payloads = new ArrayList<>();
        payloads.add(codec.encode(reserved.get(0)));
        payloads.add(codec.encode(reserved.get(1)));
        payloads.add("{\"not\": \"a reservation\"}");
        payloads.add(codec.encode(reserved.get(2)));
        payloads.add(codec.encode(reserved.get(3)));
        for (String payload : payloads) {
            kafka.send(TOPIC, 0, "poison-test-" + UUID.randomUUID(), payload);
        }
        kafka.flush();

        await().atMost(WITHIN).untilAsserted(() -> assertSettled(sale, 10, 4, 0));
        await().atMost(WITHIN).until(() -> meters.counter("flashsale.orders.dead_lettered").count()
                - deadLettersBefore >= 1);
        assertThat(meters.counter("flashsale.orders.dead_lettered").count() - deadLettersBefore).isEqualTo(1);
    }

    // ---- helpers ----

    private List<Reservation> reserve(String sale, int buyers) {
        String prefix = "batch-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        List<Reservation> reserved = new ArrayList<>();
        for (int i = 0; i < buyers; i++) {
            reserved.add(reserveAs(sale, prefix + i, Map.of(SKU, 1)));
        }
        return reserved;
    }

    private Reservation reserveAs(String sale, String buyer, Map<String, Integer> units) {
        StringBuilder items = new StringBuilder();
        units.forEach((sku, quantity) -> items.append(items.isEmpty() ? "" : ",")
                .append("{\"skuId\":\"").append(sku).append("\",\"quantity\":").append(quantity).append('}'));
        ServiceClient.Reply reply = send("POST", "/api/v1/activities/" + sale + "/reservations",
                "{\"requestId\":\"" + UUID.randomUUID() + "\",\"items\":[" + items + "]}",
                "Authorization", bearerOf(buyer), "Content-Type", "application/json");
        assertThat(reply.status()).as(reply.body()).isEqualTo(202);
        ReservationId id = new ReservationId(reply.json().path("reservationId").asString());
        return heldReservations.findReservation(id).orElseThrow();
    }

    /** A sale open now with the given per-user limit and items (JSON objects), warmed up. */
    private String saleOf(int perUserLimit, String... items) {
        String id = "it-" + UUID.randomUUID().toString().replace("-", "");
        Instant now = Instant.now();
        String body = "{\"id\":\"" + id + "\",\"name\":\"Batch sale\",\"startsAt\":\"" + now.minusSeconds(60)
                + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\",\"perUserLimit\":" + perUserLimit
                + ",\"items\":[" + String.join(",", items) + "]}";
        ServiceClient.Reply created = asAdmin("POST", "/api/v1/activities", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        api().warmUp(id);
        return id;
    }

    /** MySQL and Redis agree: {@code ordered} one-unit orders, {@code failed} refused, nothing reserved. */
    private void assertSettled(String sale, long units, long ordered, long failed) {
        ActivityId activity = new ActivityId(sale);
        Map<ReservationStatus, Long> byStatus = figures.orderCountByStatus(activity);
        assertThat(byStatus.getOrDefault(ReservationStatus.ORDERED, 0L)).as("ORDERED").isEqualTo(ordered);
        assertThat(byStatus.getOrDefault(ReservationStatus.FAILED, 0L)).as("FAILED").isEqualTo(failed);
        assertThat(figures.soldBySku(activity)).containsExactly(entry(new SkuId(SKU), ordered));
        assertThat(figures.stockFlowBySku(activity)).containsExactly(entry(new SkuId(SKU), ordered));
        SkuStock redis = redisLedger(sale);
        assertThat(redis.ledger().reserved()).as("Redis reserved").isZero();
        assertThat(redis.ledger().sold()).as("Redis sold").isEqualTo(ordered);
        assertThat(redis.ledger().available()).as("Redis available").isEqualTo(units - ordered);
    }

    private JdbcTemplate sql() {
        return new JdbcTemplate(database);
    }
}
