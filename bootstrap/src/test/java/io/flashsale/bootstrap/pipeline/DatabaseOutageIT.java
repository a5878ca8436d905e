package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * MariaDB is unreachable for a while as buyers keep reserving (crash test d): the service's connections to it go
 * through a proxy that the test cuts and restores. The order consumer's attempts (4 here, each failing after Hikari's
 * 1 s connection timeout: about 4.7 s in all) would run out within the longer outages; instead the consumer holds its
 * partitions while the database does not answer and takes them up when it does (ADR 78). The longest outage outlasts
 * the time the consumer may hold batches back for a busy machine's buyers (ADR 65), so it surely meets the consumer. Every accepted reservation
 * ends as exactly one order, nothing is dead-lettered, and the stock is exact in both stores.
 */
class DatabaseOutageIT extends PipelineTestBase {

    private static final int UNITS = 1_000;
    private static final Duration BETWEEN_RESERVATIONS = Duration.ofMillis(40);
    /**
     * The longest the consumer holds a batch back for a busy machine's buyers (ADR 65's max-wait, this context's): an
     * outage longer than it surely meets the consumer, however busy the machine.
     */
    private static final long GIVE_WAY_AT_MOST = GIVE_WAY_MAX_WAIT.toMillis();

    @ParameterizedTest(name = "[{index}] database down for {0} ms while buyers keep reserving")
    @ValueSource(longs = {300, 8_000, 15_000})
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void givenTheDatabaseDownLongerThanTheRetries_whenItIsBack_thenEveryReservationIsOneOrderAndNoneIsDeadLettered(
            long outageMillis) throws InterruptedException {
        String activityId = openSale(UNITS);
        double deadLetteredBefore = meter(MicrometerOrderPipelineMetrics.DEAD_LETTERED);
        double storeWaitsBefore = meter(MicrometerOrderPipelineMetrics.STORE_WAITS);
        AtomicBoolean buying = new AtomicBoolean(true);
        CompletableFuture<Map<String, String>> flow = CompletableFuture.supplyAsync(
                () -> reserveWhile(activityId, buying));

        Thread.sleep(300);
        databaseProxy().cut();
        try {
            Thread.sleep(outageMillis);
        } finally {
            databaseProxy().restore();
        }
        Thread.sleep(500);
        buying.set(false);
        Map<String, String> accepted = flow.join();

        assertThat(accepted).as("reservations accepted during the run").isNotEmpty();
        // The pool reconnects in its own time after the cut: a read that meets it still out is simply asked again.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).ignoreExceptions()
                .untilAsserted(() -> assertExactlyOneOrderEach(activityId, UNITS, accepted));
        assertThat(meter(MicrometerOrderPipelineMetrics.DEAD_LETTERED) - deadLetteredBefore)
                .as("events dead-lettered in this run").isZero();
        assertThat(deadLetteredReservations()).as("the dead-letter topic").doesNotContainAnyElementsOf(accepted.keySet());
        if (outageMillis > GIVE_WAY_AT_MOST) {
            assertThat(meter(MicrometerOrderPipelineMetrics.STORE_WAITS) - storeWaitsBefore)
                    .as("attempts held while the database was out: the consumer met the outage").isPositive();
        }
        System.out.printf("[pipeline-it] database down %d ms: %d reservations accepted, all ordered, none"
                + " dead-lettered, %.0f attempts held%n", outageMillis, accepted.size(),
                meter(MicrometerOrderPipelineMetrics.STORE_WAITS) - storeWaitsBefore);
    }

    /** A buyer every 40 ms, each a new one, until told to stop; returns reservation id -> buyer of the accepted. */
    private Map<String, String> reserveWhile(String activityId, AtomicBoolean buying) {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int i = 0; buying.get(); i++) {
            ServiceClient.Reply reply = reserveAsync(activityId, buyer(i)).join();
            assertThat(reply.status()).as(reply.body()).isEqualTo(202);
            accepted.put(reply.json().path("reservationId").asString(), buyer(i));
            try {
                Thread.sleep(BETWEEN_RESERVATIONS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return accepted;
    }

    private List<String> deadLetteredReservations() {
        ServiceClient.Reply listed = asAdmin("GET", "/api/v1/admin/dead-letters?limit=1000", null);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        for (JsonNode letter : listed.json().path("deadLetters")) {
            ids.add(letter.path("reservationId").asString());
        }
        return ids;
    }

    private double meter(String name) {
        return meters.counter(name).count();
    }
}
