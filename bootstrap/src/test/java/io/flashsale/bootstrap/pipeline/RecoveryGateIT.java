package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationOrderListener;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.application.port.in.RebuildLedgerUseCase;
import io.flashsale.application.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.bootstrap.schedule.LifecyclePasses;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 8, item 5: Redis loses a sale while its accepted reservations sit unconsumed in Kafka. The sale answers 503
 * NOT_READY, a warm-up is refused with 409 SALE_HAS_RESERVATIONS and the rebuild waits, until the consumer has read
 * up to the end offsets taken at the loss; then the rebuild loads MySQL's truth, with those orders in it, and the
 * sale sells exactly what is left. On main the rebuild (and the warm-up) loaded the original totals at once, and Redis
 * then sold the backlog's units a second time.
 */
class RecoveryGateIT extends PipelineTestBase {

    private static final long UNITS = 10;
    private static final int BACKLOG = 4;

    final StatefulRedisConnection<String, String> redis = TestRedis.connection();
    @Autowired
    ScheduleWarmUpsUseCase warmUps;
    @Autowired
    RebuildLedgerUseCase rebuilds;

    @Test
    void givenRedisLosesTheSaleWhileEventsSitInKafka_thenNotReadyUntilTheyAreOrders_thenTheSaleEndsWithExactFigures() {
        String id = openSale(UNITS);
        ActivityId activity = new ActivityId(id);
        MessageListenerContainer consumer = listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID);
        Map<String, String> backlog;
        consumer.stop();
        try {
            backlog = reserveOneEach(id, BACKLOG);
            awaitRelayed(activity, backlog);
            redis.sync().del(RedisKeys.activityKeys(activity).toArray(String[]::new));

            assertNotReady(id);
            ServiceClient.Reply reconciled = asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation", null);
            assertThat(reconciled.status()).as(reconciled.body()).isEqualTo(200);
            assertThat(reconciled.json().path("hotStore").asString()).as(reconciled.body())
                    .isEqualTo("AWAITING_PIPELINE");
            LifecyclePasses.warmUps(warmUps, rebuilds).run();
            ServiceClient.Reply warmUp = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);
            assertThat(warmUp.status()).as(warmUp.body()).isEqualTo(409);
            assertThat(warmUp.json().path("code").asString()).isEqualTo("SALE_HAS_RESERVATIONS");
            assertNotReady(id);
            assertThat(redis.sync().exists(RedisKeys.meta(activity))).as("nothing loaded").isZero();
        } finally {
            consumer.start();
        }

        await().atMost(WITHIN).untilAsserted(() -> backlog.keySet().forEach(reservation ->
                assertThat(orders.find(new ReservationId(reservation))).as(reservation).isPresent()));
        await().atMost(WITHIN).untilAsserted(() -> {
            ServiceClient.Reply reconciled = asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation", null);
            assertThat(reconciled.json().path("hotStore").asString()).as(reconciled.body()).isEqualTo("REBUILT");
        });
        assertThat(redis.sync().exists(RedisKeys.recovery(activity))).as("the recovery mark is cleared").isZero();
        assertThat(redisLedger(id).ledger().sold()).isEqualTo(BACKLOG);
        assertThat(redisLedger(id).ledger().available()).isEqualTo(UNITS - BACKLOG);

        Map<String, String> rest = new java.util.LinkedHashMap<>();
        for (int i = 100; i < 100 + UNITS - BACKLOG; i++) {
            ServiceClient.Reply reply = reserveAsync(id, buyer(i)).join();
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            rest.put(reply.json().path("reservationId").asString(), buyer(i));
        }
        ServiceClient.Reply soldOut = reserveAsync(id, buyer(999)).join();
        assertThat(soldOut.status()).as(soldOut.body()).isEqualTo(409);
        rest.putAll(backlog);
        awaitExactlyOneOrderEach(id, UNITS, rest);
    }

    private void assertNotReady(String activityId) {
        ServiceClient.Reply refused = reserveAsync(activityId, "buyer-late").join();
        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.json().path("code").asString()).isEqualTo("NOT_READY");
    }

    private void awaitRelayed(ActivityId activity, Map<String, String> reservations) {
        RedisCommands<String, String> commands = redis.sync();
        await().atMost(WITHIN).untilAsserted(() -> reservations.keySet().forEach(reservation ->
                assertThat(commands.hget(RedisKeys.reservations(activity), reservation + ":pos")).as(reservation)
                        .isNotNull()));
    }
}
