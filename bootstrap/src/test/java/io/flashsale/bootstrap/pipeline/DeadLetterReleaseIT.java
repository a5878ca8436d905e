package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.SkuStock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * A poison event is still dead-lettered; its reservation keeps its units until the sale's payment deadline and no
 * longer: then it is closed as FAILED ({@code NOT_PLACED_IN_TIME}), its units are sellable again, and a late replay of
 * the dead letter changes nothing (ADR 78).
 */
class DeadLetterReleaseIT extends PipelineTestBase {

    private static final long UNITS = 10;
    private static final long PAYMENT_TIMEOUT_SECONDS = 4;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void givenAPoisonReservation_whenItsPaymentDeadlinePasses_thenItIsDeadLetteredAndItsUnitsComeBackOnce() {
        expireTheJobLockAnOutageLeft();
        String activityId = api().openSale(UNITS, PAYMENT_TIMEOUT_SECONDS);
        ActivityId activity = new ActivityId(activityId);
        double releasedBefore = meters.counter(MicrometerOrderPipelineMetrics.DEAD_LETTERS_RELEASED).count();
        crashes.poison(activity);
        String reservationId;
        try {
            ServiceClient.Reply reply = reserveAsync(activityId, buyer(0)).join();
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            reservationId = reply.json().path("reservationId").asString();

            JsonNode deadLetter = awaitDeadLetter(reservationId);
            assertThat(deadLetter.path("error").asString()).contains("poison");
        } finally {
            crashes.poison(null);
        }
        ReservationId id = new ReservationId(reservationId);
        Instant reservedAt = Instant.parse(reservation(reservationId, buyer(0)).path("reservedAt").asString());

        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThat(reservation(reservationId, buyer(0)).path("status").asString()).isEqualTo("FAILED"));

        JsonNode view = reservation(reservationId, buyer(0));
        assertThat(view.path("failureReason").asString()).isEqualTo(OrderRefusal.NOT_PLACED_IN_TIME.name());
        Order closed = orders.find(id).orElseThrow();
        assertThat(closed.status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(closed.placedAt()).as("closed no earlier than its payment deadline")
                .isAfterOrEqualTo(reservedAt.plusSeconds(PAYMENT_TIMEOUT_SECONDS));
        assertUnitsAllBack(activity);
        assertThat(meters.counter(MicrometerOrderPipelineMetrics.DEAD_LETTERS_RELEASED).count() - releasedBefore)
                .isEqualTo(1.0);

        // A late replay finds the reservation settled: no order, no unit taken.
        double duplicatesBefore = orders("duplicate");
        ServiceClient.Reply replay = asAdmin("POST", "/api/v1/admin/dead-letters/"
                + awaitDeadLetter(reservationId).path("id").asString() + "/replay", null);
        assertThat(replay.status()).as(replay.body()).isEqualTo(202);
        await().atMost(WITHIN).until(() -> orders("duplicate") > duplicatesBefore);
        assertThat(orders.find(id).map(Order::status)).contains(ReservationStatus.FAILED);
        assertUnitsAllBack(activity);

        ServiceClient.Reply again = reserveAsync(activityId, buyer(0)).join();
        assertThat(again.status()).as("the buyer's allowance is back too: " + again.body()).isEqualTo(202);
    }

    /**
     * A pass that took the job's lock as an earlier test cut the database could not give it back: it stays held for
     * {@code flashsale.schedule.lock.at-most-for} (5 min). Ended here, as its expiry would end it.
     */
    private void expireTheJobLockAnOutageLeft() {
        new JdbcTemplate(database).update("UPDATE job_lock SET lock_until = UTC_TIMESTAMP(3) WHERE name = ?",
                "dead-letter-release");
    }

    private void assertUnitsAllBack(ActivityId activity) {
        SkuStock redis = stock.stock(activity).orElseThrow().getFirst();
        assertThat(redis.ledger().reserved()).as("Redis reserved").isZero();
        assertThat(redis.ledger().sold()).as("Redis sold").isZero();
        assertThat(redis.ledger().total()).as("Redis total").isEqualTo(UNITS);
        assertThat(figures.soldBySku(activity)).as("MySQL sold").containsExactly(entry(new SkuId(SKU), 0L));
    }

    private JsonNode awaitDeadLetter(String reservationId) {
        return await().atMost(WITHIN).pollInterval(Duration.ofMillis(300)).until(() -> {
            ServiceClient.Reply listed = asAdmin("GET", "/api/v1/admin/dead-letters?limit=1000", null);
            assertThat(listed.status()).as(listed.body()).isEqualTo(200);
            for (JsonNode letter : listed.json().path("deadLetters")) {
                if (reservationId.equals(letter.path("reservationId").asString())) {
                    return Optional.of(letter);
                }
            }
            return Optional.<JsonNode>empty();
        }, Optional::isPresent).orElseThrow();
    }
}
