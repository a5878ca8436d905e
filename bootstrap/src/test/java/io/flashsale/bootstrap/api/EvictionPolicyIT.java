package io.flashsale.bootstrap.api;

import io.flashsale.application.sale.service.EvictionPolicyGuard;
import io.flashsale.bootstrap.testing.TestRedis;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis's {@code maxmemory-policy} on the tests' real Redis (ADR 77): the test sets a policy that may evict, and puts
 * the one it found back after. While it may evict, warm-ups are refused with {@code HOT_STORE_MAY_EVICT} and nothing
 * is loaded, readiness is DOWN with {@code hotStoreEviction} naming the policy, and the alert's gauge is 1; once
 * {@code noeviction} is back, readiness sees it within the re-read period (10 s) and the warm-up goes through.
 */
@Timeout(120)
class EvictionPolicyIT extends ApiTestBase {

    private static final String POLICY = "maxmemory-policy";
    /** The re-read period (10 s) and slack for a loaded machine. */
    private static final Duration RECHECK_PATIENCE = Duration.ofSeconds(30);

    @Autowired
    EvictionPolicyGuard guard;

    private String found;

    private static RedisCommands<String, String> redis() {
        return TestRedis.connection().sync();
    }

    @BeforeEach
    void rememberThePolicy() {
        found = redis().configGet(POLICY).get(POLICY);
        assertThat(found).as("the tests' Redis runs as shipped").isEqualTo("noeviction");
    }

    /** Read again at once, so that the next test class does not meet the reading of this one for up to 10 s. */
    @AfterEach
    void putThePolicyBack() {
        redis().configSet(POLICY, found);
        guard.checkNow();
        assertThat(operator("/actuator/health/readiness").status()).isEqualTo(200);
    }

    @Test
    void givenAllkeysLru_whenASaleIsWarmedUp_thenRefusedNotReadyAndTheGaugeIsOne_untilNoevictionIsBack() {
        String id = createOpenActivity(1, item("sku-a", 5));
        redis().configSet(POLICY, "allkeys-lru");

        Reply refused = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);

        assertThat(redis().keys("*" + id + "*")).as("nothing of the sale in Redis").isEmpty();
        assertProblem(refused, 503, "HOT_STORE_MAY_EVICT");
        assertThat(refused.header("Retry-After")).as("an operator must act first").isNull();
        assertThat(refused.json().path("policies").toString()).contains("allkeys-lru");
        assertThat(refused.json().path("detail").asString()).contains("noeviction");
        assertProblem(reserve(id, "buyer-1", lines(null, line("sku-a", 1))), 503, "NOT_READY");
        Reply readiness = operator("/actuator/health/readiness");
        assertThat(readiness.status()).as(readiness.body()).isEqualTo(503);
        JsonNode eviction = readiness.json().path("components").path("hotStoreEviction");
        assertThat(eviction.path("status").asString()).isEqualTo("DOWN");
        assertThat(eviction.path("details").path("maxmemoryPolicy").toString()).contains("allkeys-lru");
        assertThat(gauge()).isEqualTo(1.0);

        redis().configSet(POLICY, "noeviction");

        await().atMost(RECHECK_PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> operator("/actuator/health/readiness").status() == 200);
        assertThat(operator("/actuator/health/readiness").json().path("components").path("hotStoreEviction")
                .path("status").asString()).isEqualTo("UP");
        assertThat(gauge()).isZero();
        Reply warmedUp = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);
        assertThat(warmedUp.status()).as(warmedUp.body()).isEqualTo(200);
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 1))).status()).isEqualTo(202);
    }

    @Test
    void givenVolatileLru_whenASaleIsWarmedUp_thenRefusedToo_forTheSalesRateLimitBucketsHaveATimeToLive() {
        String id = createOpenActivity(1, item("sku-a", 5));
        redis().configSet(POLICY, "volatile-lru");

        assertProblem(asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null), 503, "HOT_STORE_MAY_EVICT");
        assertThat(operator("/actuator/health/readiness").status()).isEqualTo(503);
    }

    @Test
    void givenAWarmedUpSale_whenThePolicyTurnsUnsafeAtRunTime_thenReadinessGoesDownWithinTheRereadPeriod() {
        String id = openSale(1, item("sku-a", 5));
        assertThat(operator("/actuator/health/readiness").status()).isEqualTo(200);

        redis().configSet(POLICY, "allkeys-random");

        await().atMost(RECHECK_PATIENCE).pollInterval(Duration.ofMillis(500))
                .until(() -> operator("/actuator/health/readiness").status() == 503);
        assertThat(gauge()).isEqualTo(1.0);
        assertProblem(asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null), 503, "HOT_STORE_MAY_EVICT");
    }

    /** {@code flashsale_hotstore_eviction_unsafe} as Prometheus scrapes it. */
    private double gauge() {
        String scrape = operator("/actuator/prometheus").body();
        return scrape.lines().filter(line -> line.startsWith("flashsale_hotstore_eviction_unsafe"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).findFirst()
                .orElseThrow(() -> new AssertionError("no flashsale_hotstore_eviction_unsafe in the scrape"));
    }
}
