package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.broker.EmbeddedKafkaBroker;
import io.flashsale.adapter.kafka.broker.EmbeddedKafkaSettings;
import io.flashsale.adapter.metrics.OutboxBacklogGauges;
import io.flashsale.testsupport.FreePorts;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kafka down, reservations go on: the test runs a broker of its own, stops it while buyers reserve, and starts it
 * again on the same port and log. Every reservation accepted before, during and after the outage becomes an order,
 * and while the broker is away the outbox gauges show the reservations waiting and their age.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
@Timeout(240)
class BrokerOutageIT {

    private static final String ADMIN_TOKEN = "broker-outage-it-admin-token-0123456789abcdef";
    private static final Path DATA = temporaryDirectory();
    private static final EmbeddedKafkaSettings SETTINGS = EmbeddedKafkaSettings.inDirectory(DATA)
            .withPort(FreePorts.next()).withControllerPort(FreePorts.next());
    private static EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(SETTINGS);

    @LocalServerPort
    int port;
    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        RedisEndpoint redis = TestServices.redis();
        String run = UUID.randomUUID().toString().replace("-", "");
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        PipelineDatabase.datasource().registerIn(registry);
        registry.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        registry.add("spring.kafka.bootstrap-servers", broker::bootstrapServers);
        registry.add("flashsale.kafka.embedded.enabled", () -> "false");
        registry.add("flashsale.kafka.topic", () -> "flashsale-it-outage-" + run);
        registry.add("flashsale.kafka.consumer.group-id", () -> "flashsale-it-outage-" + run);
        registry.add("flashsale.kafka.publish-timeout", () -> "3s");
        registry.add("spring.kafka.producer.properties[max.block.ms]", () -> "2000");
        registry.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-outage-" + run);
        registry.add("flashsale.relay.stale-after", () -> "1s");
        registry.add("flashsale.relay.failure-backoff", () -> "300ms");
        registry.add("flashsale.warm-up.schedule-enabled", () -> "false");
        registry.add("flashsale.archive.schedule-enabled", () -> "false");
        registry.add("flashsale.reconciliation.schedule-enabled", () -> "false");
        registry.add("flashsale.lifecycle.expiry-enabled", () -> "false");
    }

    @AfterAll
    static void stopTheBroker() {
        broker.close();
    }

    @Test
    void givenBuyersReserving_whenTheBrokerStopsAndComesBack_thenEveryAcceptedReservationBecomesAnOrder()
            throws InterruptedException {
        var api = new ServiceClient(port, ADMIN_TOKEN);
        String sale = api.openSale(1_000);
        Map<String, String> accepted = new ConcurrentHashMap<>();

        reserveWave(api, sale, "before", 30, accepted);
        awaitOrdered(api, accepted, Duration.ofSeconds(60));

        broker.close();
        reserveWave(api, sale, "during", 60, accepted);
        assertThat(accepted).as("reservations go on without the broker").hasSize(90);
        Thread.sleep(1_200);
        assertThat(gauge(OutboxBacklogGauges.DEPTH)).as("reservations waiting in the outbox").isPositive();
        assertThat(gauge(OutboxBacklogGauges.OLDEST_AGE)).as("the oldest one's age, in seconds").isGreaterThan(0.5);

        broker = EmbeddedKafkaBroker.start(SETTINGS);
        reserveWave(api, sale, "after", 30, accepted);

        awaitOrdered(api, accepted, Duration.ofSeconds(120));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                .until(() -> gauge(OutboxBacklogGauges.DEPTH) == 0 && gauge(OutboxBacklogGauges.OLDEST_AGE) == 0);
        assertThat(accepted).hasSize(120);
    }

    /** {@code buyers} buyers at once, each reserving one unit; every answer must be an acceptance. */
    private static void reserveWave(ServiceClient api, String sale, String wave, int buyers, Map<String, String> accepted) {
        List<CompletableFuture<Void>> attempts = new java.util.ArrayList<>();
        for (int b = 0; b < buyers; b++) {
            String buyer = wave + "-" + b;
            attempts.add(api.reserveAsync(sale, buyer).thenAccept(reply -> {
                assertThat(reply.status()).as(reply.body()).isEqualTo(202);
                accepted.put(reply.json().path("reservationId").asString(), buyer);
            }));
        }
        CompletableFuture.allOf(attempts.toArray(CompletableFuture[]::new)).join();
    }

    private static void awaitOrdered(ServiceClient api, Map<String, String> accepted, Duration within) {
        Set<String> ordered = ConcurrentHashMap.newKeySet();
        await().atMost(within).pollInterval(Duration.ofMillis(500)).until(() -> {
            accepted.forEach((reservationId, buyer) -> {
                if (!ordered.contains(reservationId)
                        && "ORDERED".equals(api.reservation(reservationId, buyer).path("status").asString())) {
                    ordered.add(reservationId);
                }
            });
            return ordered.size() == accepted.size();
        });
    }

    private double gauge(String name) {
        return meters.get(name).gauge().value();
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("flashsale-broker-outage-it-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
