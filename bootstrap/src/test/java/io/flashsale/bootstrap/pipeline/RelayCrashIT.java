package io.flashsale.bootstrap.pipeline;

import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.domain.activity.ActivityId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A relay dies (crash tests a and b of the order pipeline). The service's relay loop is stopped and a "dead" relay
 * is played by calling the outbox and the publisher directly, under a name no live relay has; then the loop's
 * relay, under its own name, starts again and must take over. Each case runs with several timings.
 */
class RelayCrashIT extends PipelineTestBase {

    private static final int UNITS = 20;
    private static final int RESERVATIONS = 12;

    @AfterEach
    void relayRunsAgain() {
        relayLoop.start();
    }

    @ParameterizedTest(name = "[{index}] {0} of 12 read by the dead relay, the survivor starts {1} ms later")
    @CsvSource({"0, 0", "6, 200", "12, 1200"})
    void givenARelayKilledAfterTheXaddBeforePublishing_whenAnotherRelayTakesOver_thenExactlyOneOrderEach(
            int readByDeadRelay, long survivorStartsAfterMillis) throws InterruptedException {
        relayLoop.stop();
        String activityId = openSale(UNITS);
        ActivityId activity = new ActivityId(activityId);
        Map<String, String> accepted = reserveOneEach(activityId, RESERVATIONS);
        String deadRelay = "dead-relay-" + UUID.randomUUID();
        List<OutboxEntry> read = outbox.readNew(activity, deadRelay, readByDeadRelay);
        assertThat(read).hasSize(readByDeadRelay);
        assertThat(deadRelay).isNotEqualTo(relayLoop.relayName());

        Thread.sleep(survivorStartsAfterMillis);
        assertThat(figures.orderCountByStatus(activity)).as("nothing was relayed while no relay ran").isEmpty();
        relayLoop.start();

        awaitExactlyOneOrderEach(activityId, UNITS, accepted);
        awaitOutboxDrained(activity);
    }

    @ParameterizedTest(name = "[{index}] {0} of 12 published without XACK, first copies ordered before the "
            + "survivor starts: {1}, survivor starts {2} ms later")
    @CsvSource({"12, true, 0", "6, false, 0", "12, false, 700"})
    void givenARelayKilledAfterPublishingBeforeTheXack_whenAnotherRelayPublishesAgain_thenStillExactlyOneOrderEach(
            int published, boolean firstCopiesOrderedFirst, long survivorStartsAfterMillis) throws InterruptedException {
        relayLoop.stop();
        String activityId = openSale(UNITS);
        ActivityId activity = new ActivityId(activityId);
        Map<String, String> accepted = reserveOneEach(activityId, RESERVATIONS);
        double duplicatesBefore = orders("duplicate");
        List<OutboxEntry> read = outbox.readNew(activity, "dead-relay-" + UUID.randomUUID(), RESERVATIONS);
        assertThat(read).hasSize(RESERVATIONS);

        publisher.publish(read.subList(0, published).stream().map(OutboxEntry::reservation).toList());
        if (firstCopiesOrderedFirst) {
            await().atMost(WITHIN).until(() -> figures.orderCountByStatus(activity).values().stream()
                    .mapToLong(Long::longValue).sum() == published);
        }
        Thread.sleep(survivorStartsAfterMillis);
        relayLoop.start();

        awaitExactlyOneOrderEach(activityId, UNITS, accepted);
        // Every entry the dead relay had published reached the broker twice; the second copy changed nothing.
        await().atMost(WITHIN).until(() -> orders("duplicate") - duplicatesBefore >= published);
        awaitOutboxDrained(activity);
    }

    /** Nothing is left pending or unread: the survivor acknowledged every entry, the dead relay's included. */
    private void awaitOutboxDrained(ActivityId activity) {
        String inspector = "inspector-" + UUID.randomUUID();
        await().atMost(WITHIN).pollInterval(Duration.ofMillis(200)).until(() ->
                outbox.claimStale(activity, inspector, Duration.ZERO, 100).isEmpty()
                        && outbox.readNew(activity, inspector, 100).isEmpty());
    }
}
