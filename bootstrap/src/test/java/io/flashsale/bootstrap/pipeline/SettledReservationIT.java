package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ADR 71 through the real pipeline: once MySQL has a reservation's order and Redis is told, Redis keeps no record of
 * it, only its request entry; a keyed retry after a lost answer still gets the reservation back, as the order stands,
 * and takes no stock; a cancellation gives the units back in Redis once.
 */
@Timeout(120)
class SettledReservationIT extends PipelineTestBase {

    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();

    @Test
    void givenASettledReservation_thenRedisKeepsNoRecordAndItsKeyedRetryStillReturnsIt() {
        String id = openSale(10);
        ActivityId activity = new ActivityId(id);
        ServiceClient.Reply first = reserve(id, "ann", "ann-1");
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        String reservationId = first.json().path("reservationId").asString();

        await().atMost(WITHIN).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(commands().hexists(RedisKeys.reservations(activity), reservationId))
                        .as("the record left once the order was confirmed").isFalse());
        assertThat(requested(commands(), activity)).as("the request entry stays").contains(reservationId);
        assertThat(redisLedger(id).ledger()).isEqualTo(new StockLedger(10, 0, 1));

        ServiceClient.Reply retry = reserve(id, "ann", "ann-1");
        assertThat(retry.status()).as(retry.body()).isEqualTo(202);
        assertThat(retry.json().path("reservationId").asString()).isEqualTo(reservationId);
        assertThat(retry.json().path("status").asString()).as("as MySQL holds it").isEqualTo("ORDERED");
        assertThat(redisLedger(id).ledger()).as("nothing taken twice").isEqualTo(new StockLedger(10, 0, 1));

        assertThat(api().pay(reservationId, "ann").status()).isEqualTo(200);
        ServiceClient.Reply paidRetry = reserve(id, "ann", "ann-1");
        assertThat(paidRetry.json().path("status").asString()).isEqualTo("PAID");
        assertThat(commands().hexists(RedisKeys.reservations(activity), reservationId)).isFalse();
    }

    @Test
    void givenASettledReservation_whenTheBuyerCancelsIt_thenItsUnitsComeBackInRedisOnceAndOnlyItsLetterStays() {
        String id = openSale(10);
        ActivityId activity = new ActivityId(id);
        String reservationId = reserve(id, "bob", "bob-1").json().path("reservationId").asString();
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(commands().hexists(RedisKeys.reservations(activity), reservationId)).isFalse());

        ServiceClient.Reply cancelled = api().cancel(reservationId, "bob");
        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        await().atMost(WITHIN).untilAsserted(() ->
                assertThat(redisLedger(id).ledger()).isEqualTo(StockLedger.of(10)));
        assertThat(commands().hget(RedisKeys.reservations(activity), reservationId)).as("a tombstone").isEqualTo("C");
        assertThat(commands().hgetall(RedisKeys.holdings(activity))).isEmpty();
        assertThat(api().cancel(reservationId, "bob").json().path("status").asString()).as("again: nothing moves")
                .isEqualTo("CANCELLED");
        assertThat(redisLedger(id).ledger()).isEqualTo(StockLedger.of(10));
        assertThat(reserve(id, "bob", "bob-1").json().path("status").asString()).isEqualTo("CANCELLED");
    }

    private ServiceClient.Reply reserve(String activityId, String buyer, String requestId) {
        return send("POST", "/api/v1/activities/" + activityId + "/reservations",
                "{\"requestId\":\"" + requestId + "\",\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}",
                "Authorization", bearerOf(buyer));
    }

    private RedisCommands<String, String> commands() {
        return redis.sync();
    }
}
