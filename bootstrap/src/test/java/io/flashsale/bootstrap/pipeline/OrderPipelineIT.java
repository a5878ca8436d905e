package io.flashsale.bootstrap.pipeline;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import javax.sql.DataSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/** The race of the foundation issue, carried on to MySQL: accepted reservations become orders, and only those. */
class OrderPipelineIT extends PipelineTestBase {

    @Autowired
    private DataSource dataSource;

    @Test
    void givenTenUnits_whenFiftyBuyersRaceWithFourAttemptsEach_thenExactlyTenOrdersOnePerBuyerAndRedisAndMysqlAgree() {
        String activityId = openSale(10);
        double placedBefore = orders("placed");

        Map<String, String> accepted = raceWithRepeats(activityId, 50, 4);

        assertThat(accepted).hasSize(10);
        assertThat(accepted.values()).as("buyers of the accepted reservations, limit 1 each").doesNotHaveDuplicates();
        awaitExactlyOneOrderEach(activityId, 10, accepted);
        assertThat(orders("placed") - placedBefore).isGreaterThanOrEqualTo(10);
    }

    @Test
    void givenMysqlHoldsLessStockThanRedis_whenTheRaceIsSettled_thenTheExtraReservationsFailOutOfStock() {
        String activityId = openSale(10);
        // The database of record disagrees with the hot store: it has only 7 units.
        new JdbcTemplate(dataSource).update("UPDATE activity_item SET stock = 7 WHERE activity_id = ? AND sku_id = ?",
                activityId, SKU);
        double refusedBefore = orders("refused");

        Map<String, String> accepted = race(activityId, 200);

        // Refused units come back in Redis at once (ADR 20), so a late racer may win one again and be refused too.
        assertThat(accepted.size()).isGreaterThanOrEqualTo(10);
        long failed = accepted.size() - 7L;
        ActivityId activity = new ActivityId(activityId);
        await().atMost(WITHIN).untilAsserted(() -> assertThat(figures.orderCountByStatus(activity))
                .containsOnly(entry(ReservationStatus.ORDERED, 7L), entry(ReservationStatus.FAILED, failed)));
        await().atMost(WITHIN).untilAsserted(() ->
                assertThat(statusesOf(accepted)).isEqualTo(Map.of("ORDERED", 7L, "FAILED", failed)));
        accepted.forEach((reservationId, buyer) -> {
            JsonNode read = reservation(reservationId, buyer);
            if (read.path("status").asString().equals("FAILED")) {
                assertThat(read.path("failureReason").asString()).isEqualTo("OUT_OF_STOCK");
                assertThat(read.has("orderId")).as(read.toString()).isFalse();
            } else {
                assertThat(read.path("orderId").asString()).isEqualTo(reservationId);
                assertThat(read.has("failureReason")).as(read.toString()).isFalse();
            }
        });
        SkuId sku = new SkuId(SKU);
        assertThat(figures.soldBySku(activity)).containsExactly(entry(sku, 7L));
        assertThat(figures.stockFlowBySku(activity)).containsExactly(entry(sku, 7L));
        // A refusal gives its units back in Redis at once, exactly once (ADR 20): none stays reserved.
        SkuStock redis = redisLedger(activityId);
        assertThat(redis.ledger().sold()).isEqualTo(7);
        assertThat(redis.ledger().reserved()).isZero();
        assertThat(redis.ledger().available()).isEqualTo(redis.ledger().total() - 7);
        assertThat(orders("refused") - refusedBefore).isEqualTo(failed);
    }

    @Test
    void givenThePipeline_whenMetricsAreRead_thenTheOrderAndRelayCountersAreExposed() {
        String activityId = openSale(1);
        Map<String, String> accepted = reserveOneEach(activityId, 1);
        awaitExactlyOneOrderEach(activityId, 1, accepted);

        ServiceClient.Reply orderMetric = operator().asAdmin("GET", "/actuator/metrics/flashsale.orders?tag=outcome:placed", null);
        ServiceClient.Reply relayMetric = operator().asAdmin("GET", "/actuator/metrics/flashsale.relay.relayed", null);

        assertThat(orderMetric.status()).as(orderMetric.body()).isEqualTo(200);
        assertThat(orderMetric.json().path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(1);
        assertThat(relayMetric.status()).as(relayMetric.body()).isEqualTo(200);
        assertThat(relayMetric.json().path("measurements").get(0).path("value").asDouble()).isGreaterThanOrEqualTo(1);
    }

    /**
     * {@code buyers} buyers sending {@code attempts} reservations each (no request id, so none is a replay), all at
     * once; returns reservation id -> buyer of the accepted ones.
     */
    private Map<String, String> raceWithRepeats(String activityId, int buyers, int attempts) {
        Map<CompletableFuture<ServiceClient.Reply>, String> sent = new LinkedHashMap<>();
        for (int attempt = 0; attempt < attempts; attempt++) {
            for (int i = 0; i < buyers; i++) {
                sent.put(reserveAsync(activityId, buyer(i)), buyer(i));
            }
        }
        Map<String, String> accepted = new LinkedHashMap<>();
        sent.forEach((attempt, buyer) -> {
            ServiceClient.Reply reply = attempt.join();
            assertThat(reply.status()).as(reply.body()).isIn(202, 409);
            if (reply.status() == 202) {
                accepted.put(reply.json().path("reservationId").asString(), buyer);
            }
        });
        return accepted;
    }

    private Map<String, Long> statusesOf(Map<String, String> accepted) {
        return accepted.entrySet().stream()
                .map(reservation -> reservation(reservation.getKey(), reservation.getValue()).path("status").asString())
                .collect(Collectors.groupingBy(status -> status, Collectors.counting()));
    }
}
