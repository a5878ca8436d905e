package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.ReservationOrderListener;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.adapter.metrics.MicrometerReconciliationMetrics;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.MessageListenerContainer;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ADR 29: a reservation counts as lost only when it is provably nowhere in the order pipeline, whatever its
 * age. Each test waits past the old age grace ({@link #RECONCILIATION_GRACE}), by which main re-drove every event
 * that was merely queued in Kafka or parked in the dead-letter topic.
 */
class LostByPositionIT extends PipelineTestBase {

    private static final Duration PAST_THE_GRACE = RECONCILIATION_GRACE.plusMillis(500);

    final StatefulRedisConnection<String, String> redis = TestRedis.connection();

    @Test
    void givenTheConsumerStoppedBeyondTheGrace_whenReconciledTwice_thenNoEventIsReDrivenAndEachBecomesOneOrder()
            throws InterruptedException {
        String id = openSale(20);
        double redrivesBefore = redrives();
        Map<String, String> accepted;
        MessageListenerContainer consumer = consumer();
        consumer.stop();
        try {
            accepted = reserveOneEach(id, 6);
            awaitRelayedWithPositions(id, accepted.keySet());
            Thread.sleep(PAST_THE_GRACE.toMillis());

            for (int pass = 1; pass <= 2; pass++) {
                JsonNode report = singleReport(reconcile(id));
                assertThat(report.path("action").asString()).as("pass %d: %s", pass, report).isNotEqualTo("REDRIVEN");
                assertThat(report.path("redriven").size()).as("pass %d: %s", pass, report).isZero();
            }
            assertThat(outboxEntries(id)).as("nothing appended to the outbox again").isEmpty();
            assertThat(redrives() - redrivesBefore).as("re-drives counted").isZero();
            accepted.keySet().forEach(reservation -> assertThat(orders.find(new ReservationId(reservation)))
                    .as("the consumer is stopped").isEmpty());
        } finally {
            consumer.start();
        }
        awaitExactlyOneOrderEach(id, 20, accepted);
    }

    @Test
    void givenADeadLetteredEvent_whenReconciledAgainAndAgain_thenNeverReDrivenUntilTheOperatorReplaysIt()
            throws InterruptedException {
        String id = openSale(10);
        double redrivesBefore = redrives();
        double deadLetteredBefore = meters.counter(MicrometerOrderPipelineMetrics.DEAD_LETTERED).count();
        Map<String, String> accepted;
        // A poison event: a database outage no longer dead-letters anything (the consumer waits for it, ADR 78).
        crashes.poison(new ActivityId(id));
        try {
            accepted = reserveOneEach(id, 1);
            await().atMost(WITHIN).until(() -> meters.counter(MicrometerOrderPipelineMetrics.DEAD_LETTERED)
                    .count() > deadLetteredBefore);
        } finally {
            crashes.poison(null);
        }
        String parked = accepted.keySet().iterator().next();
        Thread.sleep(PAST_THE_GRACE.toMillis());
        await().atMost(WITHIN).ignoreExceptions().untilAsserted(() -> assertThat(orders.find(new ReservationId(parked)))
                .as("dead-lettered, not placed").isEmpty());

        // Until the consumer group's commit past the dead letter lands, the event still counts as in Kafka.
        await().atMost(WITHIN).ignoreExceptions().untilAsserted(() -> {
            JsonNode report = singleReport(reconcile(id));
            assertThat(report.path("redriven").size()).as(report.toString()).isZero();
            assertThat(report.path("detail").asString()).as(report.toString())
                    .contains("dead-letter topic").contains(parked);
        });
        JsonNode again = singleReport(reconcile(id));
        assertThat(again.path("redriven").size()).as(again.toString()).isZero();
        assertThat(again.path("classification").asString()).as(again.toString()).isEqualTo("UNKNOWN_RESERVATION");
        assertThat(outboxEntries(id)).as("nothing appended to the outbox again").isEmpty();
        assertThat(redrives() - redrivesBefore).as("re-drives counted").isZero();

        replayDeadLetterOf(parked);
        awaitExactlyOneOrderEach(id, 10, accepted);
    }

    @Test
    void givenAReservationNowhereInThePipeline_whenReconciled_thenReDrivenAtOnceAndOnlyOnceWithinTheWindow() {
        String id = openSale(10);
        double redrivesBefore = redrives();
        relayLoop.stop();
        try {
            Map<String, String> accepted = reserveOneEach(id, 1);
            String lost = accepted.keySet().iterator().next();
            dropOutboxEntriesOf(id, lost);

            // No waiting for a grace: the reservation is provably nowhere in the pipeline now.
            JsonNode first = singleReport(reconcile(id));
            assertThat(first.path("classification").asString()).as(first.toString()).isEqualTo("UNKNOWN_RESERVATION");
            assertThat(first.path("action").asString()).as(first.toString()).isEqualTo("REDRIVEN");
            assertThat(texts(first.path("redriven"))).containsExactly(lost);
            assertThat(redrives() - redrivesBefore).as("re-drives counted").isEqualTo(1);

            // Lost once more (the re-driven entry dropped as well): within the window it is not re-driven again.
            dropOutboxEntriesOf(id, lost);
            JsonNode second = singleReport(reconcile(id));
            assertThat(second.path("classification").asString()).as(second.toString())
                    .isEqualTo("UNKNOWN_RESERVATION");
            assertThat(second.path("redriven").size()).as(second.toString()).isZero();
            assertThat(redrives() - redrivesBefore).as("re-drives counted").isEqualTo(1);
        } finally {
            relayLoop.start();
        }
    }

    // ---- helpers ----

    private MessageListenerContainer consumer() {
        return listeners.getListenerContainer(ReservationOrderListener.LISTENER_ID);
    }

    private double redrives() {
        return meters.counter(MicrometerReconciliationMetrics.REDRIVES).count();
    }

    /** Every reservation's entry relayed and acknowledged, with the broker's position recorded on its record. */
    private void awaitRelayedWithPositions(String activityId, Iterable<String> reservations) {
        ActivityId activity = new ActivityId(activityId);
        await().atMost(WITHIN).untilAsserted(() -> {
            for (String reservation : reservations) {
                assertRelayed(commands(), activity, reservation);
            }
            assertThat(outboxEntries(activityId)).isEmpty();
        });
    }

    private List<StreamMessage<String, String>> outboxEntries(String activityId) {
        return commands().xrange(RedisKeys.outbox(new ActivityId(activityId)), Range.create("-", "+"));
    }

    private void dropOutboxEntriesOf(String activityId, String reservation) {
        String outbox = RedisKeys.outbox(new ActivityId(activityId));
        List<String> entries = outboxEntries(activityId).stream()
                .filter(entry -> entry.getBody().containsKey(reservation))
                .map(StreamMessage::getId).toList();
        assertThat(entries).hasSize(1);
        assertThat(commands().xdel(outbox, entries.getFirst())).isEqualTo(1);
    }

    private void replayDeadLetterOf(String reservation) {
        ServiceClient.Reply listed = asAdmin("GET", "/api/v1/admin/dead-letters?limit=1000", null);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        for (JsonNode letter : listed.json().path("deadLetters")) {
            if (reservation.equals(letter.path("reservationId").asString())) {
                ids.add(letter.path("id").asString());
            }
        }
        assertThat(ids).as("the dead letter of " + reservation).isNotEmpty();
        ServiceClient.Reply replay = asAdmin("POST", "/api/v1/admin/dead-letters/" + ids.getFirst() + "/replay", null);
        assertThat(replay.status()).as(replay.body()).isEqualTo(202);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(node -> texts.add(node.asString()));
        return texts;
    }

    private RedisCommands<String, String> commands() {
        return redis.sync();
    }
}
