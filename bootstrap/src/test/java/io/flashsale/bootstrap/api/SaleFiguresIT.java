package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The buyers' reads of a sale show its live figures as one read of the hot store remembered for a moment (ADR 0066's
 * amendment): here the moment is made long, so a reservation shows in the operator's stock view at once and in the
 * buyers' view only once the moment passes; the sale's own warm-up on this instance is shown at once.
 */
@Timeout(60)
@TestPropertySource(properties = "flashsale.activity-cache.figures-fresh-for=10m")
class SaleFiguresIT extends ApiTestBase {

    @Test
    void givenRememberedFigures_whenABuyerReserves_thenTheOperatorSeesItAtOnceAndTheBuyersReadsKeepTheRememberedOne() {
        String id = createOpenActivity(1, item("sku-a", 10));
        assertThat(get("/api/v1/activities/" + id).json().path("warmedUp").asBoolean()).isFalse();
        assertThat(asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null).status()).isEqualTo(200);
        assertThat(get("/api/v1/activities/" + id).json().path("warmedUp").asBoolean())
                .as("the warm-up on this instance is shown at once").isTrue();

        assertThat(reserve(id, "alice", lines(null, line("sku-a", 1))).status()).isEqualTo(202);

        assertThat(asAdmin("GET", "/api/v1/activities/" + id + "/stock", null).json().path("items").get(0)
                .path("available").asLong()).as("the operator's view reads the hot store").isEqualTo(9);
        for (int read = 0; read < 200; read++) {
            assertThat(get("/api/v1/activities/" + id).json().path("items").get(0).path("available").asLong())
                    .as("the buyers' view, read %d", read).isEqualTo(10);
        }
    }
}
