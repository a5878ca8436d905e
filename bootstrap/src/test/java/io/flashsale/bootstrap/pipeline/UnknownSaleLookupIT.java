package io.flashsale.bootstrap.pipeline;

import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A crowd asking for a sale the hot store does not hold (one that does not exist, one not warmed up yet) is answered
 * from memory: the database sees one query per sale and lifetime of an unknown id's memory ({@link #TTL}, the
 * default), not one per request, counted at MyBatis against the real MariaDB.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@Import(ActivityQueryCounter.class)
class UnknownSaleLookupIT {

    private static final String ADMIN_TOKEN = "lookup-it-admin-token-0123456789abcdef";
    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_lookup");
    private static final String RUN = UUID.randomUUID().toString().replace("-", "");
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final int IN_FLIGHT = 32;

    @LocalServerPort
    int port;
    @Autowired
    ActivityQueryCounter queries;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry properties) {
        RedisEndpoint redis = TestServices.redis();
        properties.add("spring.data.redis.host", redis::host);
        properties.add("spring.data.redis.port", redis::port);
        TestServices.mariadb().springDatasource(DATABASE).registerIn(properties);
        properties.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        properties.add("spring.kafka.bootstrap-servers", () -> TestServices.kafka().bootstrapServers());
        properties.add("flashsale.kafka.topic", () -> "flashsale-it-lookup-" + RUN);
        properties.add("flashsale.kafka.consumer.group-id", () -> "flashsale-it-lookup-" + RUN);
        properties.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-lookup-" + RUN);
        properties.add("flashsale.relay.enabled", () -> "false");
        properties.add("flashsale.warm-up.schedule-enabled", () -> "false");
        properties.add("flashsale.archive.schedule-enabled", () -> "false");
        properties.add("flashsale.reconciliation.schedule-enabled", () -> "false");
    }

    @Test
    void givenASaleThatDoesNotExist_whenTenThousandRequestsAskForIt_thenTheDatabaseSeesAHandfulOfQueries() {
        String unknown = "no-such-sale-" + RUN;
        long requestQueriesBefore = queries.requestThreadQueries();

        Crowd crowd = crowd(unknown, 10_000);

        assertThat(crowd.statuses()).as("every buyer is told the sale does not exist")
                .containsExactly(Map.entry(404, 10_000L));
        long asked = queries.activityRowQueries(unknown);
        System.out.printf("[lookup] 10000 requests for an unknown sale in %d ms: %d activity queries, %d in all%n",
                crowd.took().toMillis(), asked, queries.requestThreadQueries() - requestQueriesBefore);
        assertThat(asked).as("queries for the unknown sale's row").isBetween(1L, crowd.mostQueries());
        assertThat(queries.requestThreadQueries() - requestQueriesBefore).as("queries from request threads in all")
                .isLessThanOrEqualTo(2 * crowd.mostQueries());
    }

    @Test
    void givenASaleNotWarmedUpYet_whenTwoThousandRequestsAskForIt_thenAllHearNotReadyForAHandfulOfQueries() {
        Instant now = Instant.now();
        String sale = api().createSale(now.minusSeconds(60), now.plusSeconds(3600), 10, null);

        Crowd crowd = crowd(sale, 2_000);

        assertThat(crowd.statuses()).as("every buyer is told to come back").containsExactly(Map.entry(503, 2_000L));
        assertThat(queries.activityRowQueries(sale)).as("queries for the sale's row").isBetween(1L, crowd.mostQueries());
    }

    /** The creation is announced (ADR 66): the memory of the id as unknown is dropped at once, not at its expiry. */
    @Test
    void givenAnIdAskedForBeforeItsSaleExisted_whenTheSaleIsCreated_thenItIsFoundAtOnce() {
        String id = "it-" + UUID.randomUUID().toString().replace("-", "");
        assertThat(api().reserveAsync(id, "early-bird").join().status()).isEqualTo(404);
        Instant now = Instant.now();
        String body = "{\"id\":\"" + id + "\",\"name\":\"Late sale\",\"startsAt\":\"" + now.minusSeconds(60)
                + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\",\"perUserLimit\":1,"
                + "\"items\":[{\"skuId\":\"" + ServiceClient.SKU + "\",\"stock\":5,\"segments\":1}]}";
        assertThat(api().asAdmin("POST", "/api/v1/activities", body).status()).isEqualTo(201);

        assertThat(api().reserveAsync(id, "early-bird").join().status()).as("known, not loaded yet").isEqualTo(503);
    }

    private ServiceClient api() {
        return new ServiceClient(port, ADMIN_TOKEN);
    }

    /** What a crowd heard, and how many queries the cache allows for the time it took: one per lifetime begun. */
    private record Crowd(Map<Integer, Long> statuses, Duration took) {

        long mostQueries() {
            return took.toMillis() / TTL.toMillis() + 1;
        }
    }

    /** {@code requests} reservations for {@code activityId}, {@value #IN_FLIGHT} at a time, each by another buyer. */
    private Crowd crowd(String activityId, int requests) {
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<ServiceClient.Reply>> replies = new ArrayList<>(requests);
        long start = System.nanoTime();
        for (int i = 0; i < requests; i++) {
            inFlight.acquireUninterruptibly();
            replies.add(api().reserveAsync(activityId, "buyer-" + i).whenComplete((reply, failure) -> inFlight.release()));
        }
        Map<Integer, Long> statuses = new TreeMap<>();
        for (CompletableFuture<ServiceClient.Reply> reply : replies) {
            statuses.merge(reply.join().status(), 1L, Long::sum);
        }
        return new Crowd(statuses, Duration.ofNanos(System.nanoTime() - start));
    }
}
