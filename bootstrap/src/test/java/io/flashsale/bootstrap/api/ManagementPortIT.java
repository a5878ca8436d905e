package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operators' surface (ADR 73): the actuator answers on its own port only, behind the admin token except for
 * liveness and readiness, whose details only an operator sees.
 */
class ManagementPortIT extends ApiTestBase {

    static final String[] ACTUATOR = {"/actuator", "/actuator/health", "/actuator/health/readiness",
        "/actuator/health/liveness", "/actuator/metrics", "/actuator/metrics/jvm.threads.live", "/actuator/prometheus",
        "/actuator/info"};

    @Test
    void givenTheBuyersPort_whenAnyActuatorPathIsAsked_then404() {
        assertThat(managementPort).isNotEqualTo(port);
        for (String path : ACTUATOR) {
            assertProblem(get(path, "Authorization", "Bearer " + ADMIN_TOKEN), 404, "NOT_FOUND");
        }
    }

    @Test
    void givenTheManagementPort_whenMetricsAreAskedWithoutOrWithAWrongToken_then401() {
        for (String path : new String[] {"/actuator/metrics", "/actuator/prometheus", "/actuator/health",
            "/actuator/metrics/jvm.threads.live", "/actuator", "/actuator/health/readiness/db"}) {
            Reply anonymous = send(managementRequest(path).GET());
            Reply wrong = send(managementRequest(path, "Authorization", "Bearer " + ADMIN_TOKEN + "x").GET());

            assertProblem(anonymous, 401, "UNAUTHORIZED");
            assertThat(anonymous.header("WWW-Authenticate")).isEqualTo("Bearer");
            assertProblem(wrong, 401, "UNAUTHORIZED");
        }
    }

    @Test
    void givenTheManagementPort_whenMetricsAreAskedWithTheAdminToken_then200() {
        assertThat(operator("/actuator/metrics").status()).isEqualTo(200);
        assertThat(operator("/actuator/metrics/jvm.threads.live").json().path("measurements").isArray()).isTrue();
        Reply scrape = operator("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body()).contains("jvm_threads_live_threads");
        assertThat(operator("/actuator/health").json().path("components").has("redis")).isTrue();
    }

    @Test
    void givenTheManagementPort_whenProbesAreAskedWithoutAToken_thenTheyAnswerWithTheStatusAlone() {
        Reply liveness = send(managementRequest("/actuator/health/liveness").GET());
        Reply readiness = send(managementRequest("/actuator/health/readiness").GET());
        Reply operatorsReadiness = operator("/actuator/health/readiness");

        assertThat(liveness.status()).as(liveness.body()).isEqualTo(200);
        assertThat(liveness.json().path("status").asString()).isEqualTo("UP");
        assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
        assertThat(readiness.json().path("status").asString()).isEqualTo("UP");
        assertThat(readiness.json().has("components")).as(readiness.body()).isFalse();
        assertThat(operatorsReadiness.json().path("components").path("kafka").path("status").asString())
                .as(operatorsReadiness.body()).isEqualTo("UP");
    }

    @Test
    void givenTheOperatorsPage_whenItReadsThePipelineFigures_thenTheAdminApiAnswersThemOnTheBuyersPort() {
        Reply anonymous = get("/api/v1/admin/pipeline-figures");
        Reply figures = asAdmin("GET", "/api/v1/admin/pipeline-figures", null);

        assertProblem(anonymous, 401, "UNAUTHORIZED");
        assertThat(figures.status()).as(figures.body()).isEqualTo(200);
        assertThat(figures.json().path("outboxDepth").isNumber()).as(figures.body()).isTrue();
        assertThat(figures.json().has("ordersPlaced")).isTrue();
    }
}
