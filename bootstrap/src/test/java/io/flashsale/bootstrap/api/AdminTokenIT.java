package io.flashsale.bootstrap.api;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wrong admin tokens on the running service (ADR 73): three allowed per client address an hour here; they are
 * counted on both surfaces, a missing token is no failure, and past the allowance the client is turned away with 429
 * before its token is even looked at, the right one included.
 */
class AdminTokenIT extends ApiTestBase {

    @Autowired
    MeterRegistry meters;

    @DynamicPropertySource
    static void aSmallAllowance(DynamicPropertyRegistry registry) {
        registry.add("flashsale.admin.failures-allowed", () -> "3");
        registry.add("flashsale.admin.failures-window", () -> "1h");
    }

    @Test
    void givenAClientGuessingTokens_whenItExceedsTheAllowance_thenItIsTurnedAwayAndEveryFailureCounted() {
        String sales = "/api/v1/activities";
        for (int i = 0; i < 5; i++) {
            assertProblem(get(sales), 401, "UNAUTHORIZED");
        }
        // A forwarded header from an untrusted peer changes nothing, on either port: the guesses share one allowance.
        assertProblem(get(sales, "Authorization", "Bearer guess-1", "X-Forwarded-For", "198.51.100.1"), 401,
                "UNAUTHORIZED");
        assertProblem(get(sales, "Authorization", "Bearer guess-2", "X-Forwarded-For", "198.51.100.2"), 401,
                "UNAUTHORIZED");
        assertThat(asAdmin("GET", sales, null).status()).as("the right token, before the allowance is spent")
                .isEqualTo(200);
        assertProblem(send(managementRequest("/actuator/metrics", "Authorization", "Bearer guess-3",
                "X-Forwarded-For", "198.51.100.3").GET()), 401, "UNAUTHORIZED");

        Reply turnedAway = get(sales, "Authorization", "Bearer guess-4", "X-Forwarded-For", "198.51.100.4");
        Reply rightTokenNow = asAdmin("GET", sales, null);
        Reply operatorNow = operator("/actuator/metrics");

        assertProblem(turnedAway, 429, "RATE_LIMITED");
        assertThat(turnedAway.json().path("limit").asString()).isEqualTo("admin");
        assertThat(Long.parseLong(turnedAway.header("Retry-After"))).isPositive();
        assertProblem(rightTokenNow, 429, "RATE_LIMITED");
        assertProblem(operatorNow, 429, "RATE_LIMITED");
        assertThat(meters.get("flashsale.admin.failures").tag("surface", "api").counter().count()).isEqualTo(2);
        assertThat(meters.get("flashsale.admin.failures").tag("surface", "management").counter().count()).isEqualTo(1);
        assertThat(meters.get("flashsale.admin.blocked").counter().count()).isGreaterThanOrEqualTo(3);
    }
}
