package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.RedisRequestIndex;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.StockLedger;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static io.flashsale.testsupport.TestBuyerTokens.bearerOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ADRs 30 and 31 on real Redis, Kafka and MariaDB: a partial loss that leaves stale records behind is rebuilt from
 * MySQL's orders, so nothing that survived acts on the rebuilt ledger; and with the request index gone, a retried
 * request becomes a second reservation in Redis but never a second order (the unique request key refuses it).
 */
@Timeout(120)
class RebuildIT extends PipelineTestBase {

    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();

    @Test
    void givenTheRequestIndexLost_whenABuyerWithALimitOfTwoRetriesARequest_thenItNeverBecomesASecondOrder() {
        String id = openSaleWithLimit(10, 2);
        ServiceClient.Reply first = reserve(id, "ann", "retry-1");
        assertThat(first.status()).as(first.body()).isEqualTo(202);
        String original = first.json().path("reservationId").asString();
        awaitStatus(original, "ann", "ORDERED");

        commands().del(RedisRequestIndex.keys(commands(), activity(id)).toArray(String[]::new));
        ServiceClient.Reply retried = reserve(id, "ann", "retry-1");

        assertThat(retried.status()).as("the lost index makes Redis take it as new: " + retried.body())
                .isEqualTo(202);
        String second = retried.json().path("reservationId").asString();
        assertThat(second).isNotEqualTo(original);
        // Redis refused it (FAILED, its unit back); its id now leads to the request's order (ADR 61).
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> assertThat(
                record(commands(), activity(id), second).status()).isEqualTo(ReservationStatus.FAILED));
        var seenThroughSecond = reservation(second, "ann");
        assertThat(seenThroughSecond.path("reservationId").asString()).isEqualTo(original);
        assertThat(seenThroughSecond.path("sameRequestAs").asString()).isEqualTo(second);
        assertThat(seenThroughSecond.path("status").asString()).isEqualTo("ORDERED");
        assertThat(orders.find(new ReservationId(second))).as("refused, not stored: the request's row exists")
                .isEmpty();
        assertThat(new JdbcTemplate(database).queryForObject("""
                SELECT COUNT(*) FROM purchase_order WHERE activity_id = ? AND buyer_id = 'ann' AND request_id = 'retry-1'
                """, Long.class, id)).isEqualTo(1);
        assertThat(figures.soldBySku(activity(id))).containsEntry(new SkuId(SKU), 1L);
        await().atMost(WITHIN).untilAsserted(() ->
                assertThat(redisLedger(id).ledger()).as("the refused one's unit is back").isEqualTo(new StockLedger(10, 0, 1)));
        assertThat(commands().hget(RedisKeys.holdings(activity(id)), "ann:" + SKU)).isEqualTo("1");
    }

    @Test
    void givenAPartialLossLeavingAStaleRecord_whenRebuilt_thenTheRecordIsMySqlsAndTheBuyersCancelGivesBackOnce() {
        String id = openSale(10);
        ServiceClient.Reply annsReply = reserve(id, "ann", "a-1");
        ServiceClient.Reply bobsReply = reserve(id, "bob", "b-1");
        String anns = annsReply.json().path("reservationId").asString();
        String bobs = bobsReply.json().path("reservationId").asString();
        awaitStatus(anns, "ann", "ORDERED");
        awaitStatus(bobs, "bob", "ORDERED");
        ActivityId activity = activity(id);
        // The loss: Redis kept an older copy of Ann's record (still RESERVED) and lost the sale's meta and ledger.
        rewriteStatus(commands(), activity, anns, ReservationStatus.RESERVED);
        commands().del(RedisKeys.meta(activity), RedisKeys.stock(activity));
        assertThat(reserve(id, "cid", "c-1").status()).isEqualTo(503);

        ServiceClient.Reply reconciled = asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation", null);

        assertThat(reconciled.status()).as(reconciled.body()).isEqualTo(200);
        assertThat(reconciled.json().path("hotStore").asString()).isEqualTo("REBUILT");
        assertThat(redisLedger(id).ledger()).isEqualTo(new StockLedger(10, 0, 2));
        assertThat(reservation(anns, "ann").path("status").asString()).as("rebuilt as MySQL holds it")
                .isEqualTo("ORDERED");
        ServiceClient.Reply replayed = reserve(id, "bob", "b-1");
        assertThat(replayed.json().path("reservationId").asString()).as("the rebuilt request index answers a retry")
                .isEqualTo(bobs);

        ServiceClient.Reply cancelled = api().cancel(anns, "ann");
        assertThat(cancelled.status()).as(cancelled.body()).isIn(200, 202);
        await().atMost(WITHIN).untilAsserted(() -> {
            assertThat(orders.find(new ReservationId(anns)).orElseThrow().status())
                    .isEqualTo(ReservationStatus.CANCELLED);
            assertThat(redisLedger(id).ledger()).isEqualTo(new StockLedger(10, 0, 1));
        });
        assertThat(restoreRows(anns)).as("given back once").isEqualTo(1);
        assertThat(figures.soldBySku(activity)).containsEntry(new SkuId(SKU), 1L);
        assertThat(commands().hgetall(RedisKeys.holdings(activity))).isEqualTo(Map.of("bob:" + SKU, "1"));
    }

    private String openSaleWithLimit(long units, int limit) {
        String id = "it-" + UUID.randomUUID().toString().replace("-", "");
        Instant now = Instant.now();
        String body = "{\"id\":\"" + id + "\",\"name\":\"Rebuild sale\",\"startsAt\":\"" + now.minusSeconds(60)
                + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\",\"perUserLimit\":" + limit
                + ",\"items\":[{\"skuId\":\"" + SKU + "\",\"stock\":" + units + ",\"segments\":1}]}";
        ServiceClient.Reply created = asAdmin("POST", "/api/v1/activities", body);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        api().warmUp(id);
        return id;
    }

    private ServiceClient.Reply reserve(String activityId, String buyer, String requestId) {
        return send("POST", "/api/v1/activities/" + activityId + "/reservations",
                "{\"requestId\":\"" + requestId + "\",\"items\":[{\"skuId\":\"" + SKU + "\",\"quantity\":1}]}",
                "Authorization", bearerOf(buyer));
    }

    private void awaitStatus(String reservationId, String buyer, String status) {
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(reservation(reservationId, buyer).path("status").asString()).isEqualTo(status));
    }

    private RedisCommands<String, String> commands() {
        return redis.sync();
    }

    private static ActivityId activity(String id) {
        return new ActivityId(id);
    }
}
