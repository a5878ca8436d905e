package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.kafka.broker.EmbeddedKafkaBroker;
import io.flashsale.bootstrap.kafka.EmbeddedKafkaLauncher;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The run command's case: demo mode and no {@code spring.kafka.bootstrap-servers} anywhere, so the service starts its
 * own broker, here on a temporary data directory and a free port, and the whole pipeline runs on it.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class EmbeddedBrokerIT {

    private static final String ADMIN_TOKEN = "embedded-broker-it-admin-token-0123456789abcdef";
    private static final Path DATA = temporaryDirectory();

    @LocalServerPort
    int port;
    @Autowired
    EmbeddedKafkaLauncher launcher;
    @Autowired
    Environment environment;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry registry) {
        RedisEndpoint redis = TestServices.redis();
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        PipelineDatabase.datasource().registerIn(registry);
        registry.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        registry.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-embedded-" + UUID.randomUUID());
        // Demo mode, as the run command's demo profile turns it on: Redis and the database stay the configured ones.
        registry.add("flashsale.embedded.enabled", () -> "true");
        registry.add("flashsale.kafka.embedded.data-dir", DATA::toString);
        registry.add("flashsale.kafka.embedded.port", () -> "0");
        // Off: the pipeline tests' sales on this database must not be registered with this context's relay.
        registry.add("flashsale.warm-up.schedule-enabled", () -> "false");
        registry.add("flashsale.archive.schedule-enabled", () -> "false");
        registry.add("flashsale.reconciliation.schedule-enabled", () -> "false");
    }

    @Test
    void givenNoConfiguredBrokers_whenTheServiceStarts_thenItRunsItsOwnBrokerOnTheConfiguredDataDirectory() {
        EmbeddedKafkaBroker broker = launcher.broker();

        assertThat(broker).isNotNull();
        assertThat(broker.dataDirectory()).isEqualTo(DATA.toAbsolutePath().normalize());
        assertThat(environment.getProperty(EmbeddedKafkaLauncher.BOOTSTRAP_SERVERS)).isEqualTo(broker.bootstrapServers());
        assertThat(DATA.resolve("meta.properties")).exists();
    }

    @Test
    void givenTheEmbeddedBroker_whenABuyerReserves_thenTheReservationBecomesAnOrder() {
        var api = new ServiceClient(port, ADMIN_TOKEN);
        String activityId = api.openSale(5);

        ServiceClient.Reply reserved = api.reserveAsync(activityId, "alice").join();

        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        String reservationId = reserved.json().path("reservationId").asString();
        JsonNode ordered = await().atMost(Duration.ofSeconds(30)).until(() -> api.reservation(reservationId, "alice"),
                read -> read.path("status").asString().equals("ORDERED"));
        assertThat(ordered.path("orderId").asString()).isEqualTo(reservationId);
    }

    private static Path temporaryDirectory() {
        try {
            Path directory = Files.createTempDirectory("flashsale-embedded-kafka-it-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(directory)));
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException ignored) {
            // A temporary directory; the OS cleans up what is left.
        }
    }
}
