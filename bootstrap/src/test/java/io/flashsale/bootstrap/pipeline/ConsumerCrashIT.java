package io.flashsale.bootstrap.pipeline;

import io.flashsale.bootstrap.pipeline.CrashingPlaceOrder.Moment;
import io.flashsale.bootstrap.pipeline.CrashingPlaceOrder.Plan;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The order consumer dies after the database commit but before the offset commit (crash test c): the delivery
 * fails once the order is in MySQL, optionally with the listener container stopped and started again, so the
 * event is delivered again and must find the order. Several crash points, frequencies and restart delays.
 */
class ConsumerCrashIT extends PipelineTestBase {

    private static final int UNITS = 30;
    private static final int RESERVATIONS = 24;

    @AfterEach
    void consumerRunsNormallyAgain() {
        crashes.disarm();
        await().atMost(WITHIN).until(() -> !crashes.restarting());
    }

    @ParameterizedTest(name = "[{index}] crash {0} on every {1}th reservation, consumer restarted after {2} ms (-1: not)")
    @CsvSource({"AFTER_REDIS, 3, -1", "AFTER_COMMIT_BEFORE_REDIS, 2, -1", "AFTER_REDIS, 5, 300",
            "AFTER_COMMIT_BEFORE_REDIS, 4, 1500"})
    void givenAConsumerThatDiesAfterTheDatabaseCommit_whenTheEventComesAgain_thenItFindsTheOrderAndNothingDoubles(
            Moment moment, int everyNth, long restartAfterMillis) {
        String activityId = openSale(UNITS);
        double duplicatesBefore = orders("duplicate");
        int restartsBefore = crashes.restarts();
        crashes.arm(new Plan(new ActivityId(activityId), moment, everyNth,
                restartAfterMillis < 0 ? null : Duration.ofMillis(restartAfterMillis)));

        Map<String, String> accepted = reserveOneEach(activityId, RESERVATIONS);

        awaitExactlyOneOrderEach(activityId, UNITS, accepted);
        Set<ReservationId> crashed = crashes.crashed();
        assertThat(crashed).as("deliveries that died after the commit").isNotEmpty();
        assertThat(crashed).allSatisfy(id -> assertThat(accepted).containsKey(id.value()));
        await().atMost(WITHIN).until(() -> orders("duplicate") - duplicatesBefore >= crashed.size());
        await().atMost(WITHIN).until(() -> !crashes.restarting());
        assertThat(crashes.restarts() - restartsBefore).as("listener container restarts").isEqualTo(restartAfterMillis < 0 ? 0 : 1);
    }
}
