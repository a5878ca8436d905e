package io.flashsale.bootstrap.pipeline;

import io.flashsale.bootstrap.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * MariaDB is unreachable for a while as reservations flow (crash test d): the service's connections to it go
 * through a proxy that the test cuts and restores. Short outages are ridden out by the consumer's retries; an event
 * whose last attempt fell into the outage is dead-lettered, and the admin replays it. Either way each accepted
 * reservation ends as exactly one order.
 */
class DatabaseOutageIT extends PipelineTestBase {

    private static final int UNITS = 100;
    private static final int RESERVATIONS = 40;
    private static final Duration BETWEEN_RESERVATIONS = Duration.ofMillis(50);

    /**
     * Four attempts, each failing only after Hikari's 1 s connection timeout, span about 4.7 s: an event that meets
     * the start of a 7 s outage cannot be placed before its attempts run out, so it must be dead-lettered and
     * replayed. Shorter outages may be ridden out by the retries alone.
     */
    @ParameterizedTest(name = "[{index}] database down for {0} ms while reservations flow; dead letters a must: {1}")
    @CsvSource({"300, false", "2500, false", "7000, true"})
    void givenTheDatabaseDownForAWhile_whenItIsBack_thenEveryReservationBecomesExactlyOneOrder(long outageMillis,
            boolean deadLettersExpected) throws InterruptedException {
        String activityId = openSale(UNITS);
        double deadLetteredBefore = deadLettered();
        CompletableFuture<Map<String, String>> flow = CompletableFuture.supplyAsync(() -> reserveSteadily(activityId));

        Thread.sleep(300);
        databaseProxy().cut();
        try {
            Thread.sleep(outageMillis);
        } finally {
            databaseProxy().restore();
        }
        Map<String, String> accepted = flow.join();

        assertThat(accepted).hasSize(RESERVATIONS);
        int replayed = replayDeadLettersUntilEachIsOrdered(accepted);
        awaitExactlyOneOrderEach(activityId, UNITS, accepted);
        assertThat(deadLettered() - deadLetteredBefore).as("dead-lettered events of this run")
                .isGreaterThanOrEqualTo(replayed);
        System.out.printf("[pipeline-it] database down %d ms: %d of %d reservations were dead-lettered and replayed%n",
                outageMillis, replayed, RESERVATIONS);
        if (deadLettersExpected) {
            assertThat(replayed).as("dead letters replayed into orders after a %d ms outage", outageMillis)
                    .isPositive();
        }
    }

    private Map<String, String> reserveSteadily(String activityId) {
        Map<String, String> accepted = new LinkedHashMap<>();
        for (int i = 0; i < RESERVATIONS; i++) {
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

    /** Replays, once each, the dead letters of reservations that have no order; returns how many it replayed. */
    private int replayDeadLettersUntilEachIsOrdered(Map<String, String> accepted) {
        Set<String> replayed = new HashSet<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() -> {
            Set<String> unordered = accepted.keySet().stream()
                    .filter(id -> orders.find(new ReservationId(id)).isEmpty())
                    .collect(Collectors.toSet());
            if (unordered.isEmpty()) {
                return true;
            }
            ServiceClient.Reply listed = asAdmin("GET", "/api/v1/admin/dead-letters?limit=1000", null);
            assertThat(listed.status()).as(listed.body()).isEqualTo(200);
            for (JsonNode letter : listed.json().path("deadLetters")) {
                String id = letter.path("id").asString();
                if (unordered.contains(letter.path("reservationId").asString()) && !replayed.contains(id)) {
                    ServiceClient.Reply replay = asAdmin("POST", "/api/v1/admin/dead-letters/" + id + "/replay", null);
                    assertThat(replay.status()).as(replay.body()).isEqualTo(202);
                    replayed.add(id);
                }
            }
            return false;
        });
        return replayed.size();
    }

    private double deadLettered() {
        return meters.counter(MicrometerOrderPipelineMetrics.DEAD_LETTERED).count();
    }
}
