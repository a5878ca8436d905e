package io.flashsale.bootstrap.pipeline;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.bootstrap.config.OutboxRegistryProperties;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import io.flashsale.bootstrap.testing.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The warm-up and archive schedules, with nobody calling the endpoints: a sale is loaded a lead time before it opens,
 * and an ended one leaves Redis. A context of its own on a database of its own, closed afterwards: its schedules
 * would otherwise load or archive the other tests' sales.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
class SaleScheduleIT {

    private static final String ADMIN_TOKEN = "schedule-it-admin-token-0123456789abcdef";
    private static final String DATABASE = TestServices.mariadb().freshDatabase("flashsale_it_schedule");
    private static final String RUN = UUID.randomUUID().toString().replace("-", "");
    private static final Duration LEAD = Duration.ofSeconds(1);

    @LocalServerPort
    int port;
    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();
    @Autowired
    private OutboxRegistryProperties registry;

    @DynamicPropertySource
    static void services(DynamicPropertyRegistry properties) {
        RedisEndpoint redis = TestServices.redis();
        properties.add("spring.data.redis.host", redis::host);
        properties.add("spring.data.redis.port", redis::port);
        TestServices.mariadb().springDatasource(DATABASE).registerIn(properties);
        properties.add("flashsale.admin.token", () -> ADMIN_TOKEN);
        properties.add("spring.kafka.bootstrap-servers", () -> TestServices.kafka().bootstrapServers());
        properties.add("flashsale.kafka.topic", () -> "flashsale-it-schedule-" + RUN);
        properties.add("flashsale.kafka.consumer.group-id", () -> "flashsale-it-schedule-" + RUN);
        properties.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-schedule-" + RUN);
        properties.add("flashsale.relay.enabled", () -> "false");
        properties.add("flashsale.warm-up.lead", LEAD::toString);
        properties.add("flashsale.warm-up.interval", () -> "100ms");
        properties.add("flashsale.archive.interval", () -> "300ms");
    }

    @Test
    void givenASaleStartingInTwoSecondsAndALeadOfOne_whenNobodyWarmsItUp_thenTheScheduleLoadsItBeforeItOpens()
            throws InterruptedException {
        ServiceClient api = new ServiceClient(port, ADMIN_TOKEN);
        Instant startsAt = Instant.now().truncatedTo(ChronoUnit.MILLIS).plusSeconds(2);
        String activityId = api.createSale(startsAt, startsAt.plusSeconds(3600), 5, null);

        ServiceClient.Reply tooEarly = api.reserveAsync(activityId, "early-bird").join();

        assertThat(tooEarly.status()).as(tooEarly.body()).isEqualTo(503);
        assertThat(tooEarly.json().path("code").asString()).isEqualTo("NOT_READY");
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> warmedUp(api, activityId));
        Instant seenWarm = Instant.now();
        assertThat(seenWarm).as("loaded within the lead time, not earlier").isAfterOrEqualTo(startsAt.minus(LEAD));
        assertThat(seenWarm).as("loaded before the sale opened").isBefore(startsAt);

        Thread.sleep(Math.max(0, Duration.between(Instant.now(), startsAt).toMillis() + 50));
        ServiceClient.Reply reserved = api.reserveAsync(activityId, "on-time").join();

        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
    }

    @Test
    void givenASaleThatEndsWithNothingInFlight_whenNobodyArchivesIt_thenTheScheduleClearsItFromRedis() {
        ServiceClient api = new ServiceClient(port, ADMIN_TOKEN);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant endsAt = now.plusSeconds(1);
        String activityId = api.createSale(now.minusSeconds(60), endsAt, 5, null);
        api.warmUp(activityId);
        assertThat(redisKeysOf(activityId)).isPositive();

        // The archive deletes the sale's keys in one script and then leaves the registry (another slot): both done.
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> redisKeysOf(activityId) == 0
                        && !redis.sync().sismember(registry.outboxRegistry(), activityId));

        assertThat(Instant.now()).as("not before the sale ended").isAfterOrEqualTo(endsAt);
        ServiceClient.Reply archived = api.asAdmin("POST", "/api/v1/activities/" + activityId + "/archive", null);
        assertThat(archived.status()).as(archived.body()).isEqualTo(200);
        assertThat(Instant.parse(archived.json().path("archivedAt").asString()))
                .isBetween(endsAt, Instant.now());
        ServiceClient.Reply sale = api.send("GET", "/api/v1/activities/" + activityId, null);
        assertThat(sale.status()).as(sale.body()).isEqualTo(200);
        assertThat(sale.json().path("items").get(0).path("available").asLong()).isEqualTo(5);
    }

    private static boolean warmedUp(ServiceClient api, String activityId) {
        return api.send("GET", "/api/v1/activities/" + activityId, null).json().path("warmedUp").asBoolean();
    }

    private long redisKeysOf(String activityId) {
        return redis.sync().exists(RedisKeys.activityKeys(new ActivityId(activityId)).toArray(String[]::new));
    }
}
