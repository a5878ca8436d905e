package io.flashsale.bootstrap.pipeline;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator's pause, resume and extension (ADR 79) across two service instances sharing Redis, Kafka and MariaDB:
 * a change made through one is in force on the other within a second, though the other remembers refusals for a
 * minute, and a paused sale deducts nothing.
 */
@Timeout(180)
class SaleControlAcrossInstancesIT extends PipelineTestBase {

    private static final long WITHIN_MS = 1_000;
    private static ConfigurableApplicationContext secondInstance;

    private final AtomicInteger buyers = new AtomicInteger();

    @Autowired
    Environment environment;

    @BeforeEach
    void startTheSecondInstance() {
        if (secondInstance == null) {
            // Only a notice, never the memory running out, can make the other instance forget a refusal.
            secondInstance = SecondInstance.start(environment, Map.of("flashsale.known-refusals.memory", "60s",
                    "flashsale.activity-cache.ttl", "60s", "flashsale.activity-cache.figures-fresh-for", "0s"));
        }
    }

    @AfterAll
    static void stopTheSecondInstance() {
        if (secondInstance != null) {
            secondInstance.close();
            secondInstance = null;
        }
    }

    private ServiceClient other() {
        return SecondInstance.client(secondInstance, ADMIN_TOKEN);
    }

    private ServiceClient.Reply reserve(ServiceClient instance, String sale) {
        return instance.reserveAsync(sale, "buyer-" + buyers.incrementAndGet()).join();
    }

    private static String code(ServiceClient.Reply reply) {
        return reply.json().path("code").asString();
    }

    /**
     * Milliseconds from {@code since} until an attempt through {@code instance} answers as {@code expected}, one
     * attempt every 10 ms; the last reply when it never does within two seconds (a loaded box may be a little late).
     */
    private long millisUntil(ServiceClient instance, String sale, Predicate<ServiceClient.Reply> expected, long since,
                             StringBuilder last) {
        long deadline = since + TimeUnit.SECONDS.toNanos(2);
        while (System.nanoTime() < deadline) {
            ServiceClient.Reply reply = reserve(instance, sale);
            if (expected.test(reply)) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
            }
            last.setLength(0);
            last.append(reply.status()).append(' ').append(reply.body());
            sleep(10);
        }
        return Long.MAX_VALUE;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Predicate<ServiceClient.Reply> refused(String code) {
        return reply -> reply.status() == 409 && code.equals(code(reply));
    }

    private static final Predicate<ServiceClient.Reply> ACCEPTED = reply -> reply.status() == 202;

    private ServiceClient.Reply control(ServiceClient instance, String sale, String action) {
        ServiceClient.Reply reply = instance.asAdmin("POST", "/api/v1/activities/" + sale + "/" + action, null);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply;
    }

    @Test
    void givenASaleServedByBoth_whenPausedOnOne_thenTheOtherRefusesSalePausedAtOnceAndNothingIsDeducted() {
        String sale = openSale(5);
        assertThat(reserve(other(), sale).status()).isEqualTo(202);

        ServiceClient.Reply paused = control(api(), sale, "pause");
        assertThat(paused.json().path("paused").asBoolean()).isTrue();
        long pausedAt = System.nanoTime();

        StringBuilder last = new StringBuilder();
        assertThat(millisUntil(other(), sale, refused("SALE_PAUSED"), pausedAt, last)).as(last.toString())
                .isLessThan(WITHIN_MS);
        for (int i = 0; i < 5; i++) {
            assertThat(code(reserve(api(), sale))).isEqualTo("SALE_PAUSED");
            assertThat(code(reserve(other(), sale))).isEqualTo("SALE_PAUSED");
        }
        assertThat(redisLedger(sale).ledger().available()).as("nothing deducted while paused").isEqualTo(4);
        ServiceClient.Reply read = other().send("GET", "/api/v1/activities/" + sale, null);
        assertThat(read.json().path("paused").asBoolean()).as("the other instance's read of the sale: %s", read.body())
                .isTrue();

        control(other(), sale, "resume");
        long resumedAt = System.nanoTime();
        assertThat(millisUntil(api(), sale, ACCEPTED, resumedAt, last)).as(last.toString()).isLessThan(WITHIN_MS);
        assertThat(redisLedger(sale).ledger().available()).isEqualTo(3);
    }

    @Test
    void givenTheOtherRemembersTheSaleSoldOut_whenPaused_thenItAnswersSalePausedNotSoldOutWithinASecond() {
        String sale = openSale(1);
        assertThat(reserve(api(), sale).status()).isEqualTo(202);
        assertThat(code(reserve(other(), sale))).isEqualTo("SOLD_OUT");
        assertThat(code(reserve(other(), sale))).as("now from its memory").isEqualTo("SOLD_OUT");

        control(api(), sale, "pause");
        long pausedAt = System.nanoTime();

        StringBuilder last = new StringBuilder();
        assertThat(millisUntil(other(), sale, refused("SALE_PAUSED"), pausedAt, last)).as(last.toString())
                .isLessThan(WITHIN_MS);

        control(api(), sale, "resume");
        assertThat(millisUntil(other(), sale, refused("SOLD_OUT"), System.nanoTime(), last)).as(last.toString())
                .isLessThan(WITHIN_MS);
    }

    @Test
    void givenASaleAboutToEnd_whenExtendedOnOne_thenTheOtherShowsTheNewEndWithinASecondAndSellsPastTheOldOne() {
        Instant plannedEnd = Instant.now().plusSeconds(8).truncatedTo(ChronoUnit.MILLIS);
        String sale = api().createSale(plannedEnd.minusSeconds(3600), plannedEnd, 1_000, null);
        api().warmUp(sale);
        assertThat(endsAtAsReadThrough(other(), sale)).as("remembered by the other instance").isEqualTo(plannedEnd);
        Instant later = plannedEnd.plusSeconds(3600);

        ServiceClient.Reply extended = api().asAdmin("PATCH", "/api/v1/activities/" + sale,
                "{\"endsAt\":\"" + later + "\"}");
        assertThat(extended.status()).as(extended.body()).isEqualTo(200);
        assertThat(Instant.parse(extended.json().path("endsAt").asString())).isEqualTo(later);
        long extendedAt = System.nanoTime();

        long deadline = extendedAt + TimeUnit.MILLISECONDS.toNanos(WITHIN_MS);
        while (!later.equals(endsAtAsReadThrough(other(), sale)) && System.nanoTime() < deadline) {
            sleep(10);
        }
        assertThat(endsAtAsReadThrough(other(), sale)).as("the other instance's read within a second").isEqualTo(later);

        sleep(Math.max(0, Duration.between(Instant.now(), plannedEnd).toMillis()) + 200);
        ServiceClient.Reply past = reserve(other(), sale);
        assertThat(past.status()).as("past the planned end: %s", past.body()).isEqualTo(202);
    }

    private static Instant endsAtAsReadThrough(ServiceClient instance, String sale) {
        ServiceClient.Reply read = instance.send("GET", "/api/v1/activities/" + sale, null);
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        return Instant.parse(read.json().path("endsAt").asString());
    }

    @Test
    void givenARunningSale_whenItsWindowWouldBeCutBelowNowOrItsStartMoved_thenRefusedWithAClearCodeAndUnchanged() {
        String sale = openSale(5);
        String path = "/api/v1/activities/" + sale;

        ServiceClient.Reply past = api().asAdmin("PATCH", path, "{\"endsAt\":\"" + Instant.now().minusSeconds(1) + "\"}");
        assertThat(past.status()).as(past.body()).isEqualTo(409);
        assertThat(code(past)).isEqualTo("ENDS_NOT_AFTER_NOW");
        assertThat(past.body()).doesNotContain("Exception");

        ServiceClient.Reply moved = api().asAdmin("PATCH", path, "{\"startsAt\":\"" + Instant.now().plusSeconds(60) + "\"}");
        assertThat(moved.status()).as(moved.body()).isEqualTo(409);
        assertThat(code(moved)).isEqualTo("SALE_STARTED");

        assertThat(reserve(other(), sale).status()).as("still open").isEqualTo(202);
    }

    @Test
    void givenBadInput_whenPatched_thenProblemsNeverA500() {
        String sale = openSale(1);
        String path = "/api/v1/activities/" + sale;

        assertThat(api().asAdmin("PATCH", path, "{}")).satisfies(reply -> {
            assertThat(reply.status()).as(reply.body()).isEqualTo(400);
            assertThat(code(reply)).isEqualTo("VALIDATION");
        });
        assertThat(api().asAdmin("PATCH", path, "{\"endsAt\":\"tomorrow\"}").status()).isEqualTo(400);
        assertThat(api().asAdmin("PATCH", path, "{\"endsAt\":")).satisfies(reply ->
                assertThat(reply.status()).as(reply.body()).isEqualTo(400));
        assertThat(api().asAdmin("PATCH", path, "{\"endsAt\":\"+10000-01-01T00:00:00Z\"}")).satisfies(reply -> {
            assertThat(reply.status()).as(reply.body()).isEqualTo(400);
            assertThat(code(reply)).isEqualTo("VALIDATION");
        });
        assertThat(api().asAdmin("PATCH", "/api/v1/activities/no-such-sale", "{\"endsAt\":\"2099-01-01T00:00:00Z\"}"))
                .satisfies(reply -> assertThat(code(reply)).isEqualTo("ACTIVITY_NOT_FOUND"));
        assertThat(api().send("POST", path + "/pause", null)).satisfies(reply -> {
            assertThat(reply.status()).as("no admin token: %s", reply.body()).isEqualTo(401);
        });
        assertThat(api().asAdmin("POST", "/api/v1/activities/no-such-sale/pause", null).status()).isEqualTo(404);
    }
}
