package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sale in slices on the API (ADR 109): created with {@code "slices"} and shown with it, a count out of range refused,
 * its placement on the hot store's masters in the warm-up's and the stock's answers, each slice reconciled (ADR 110),
 * and the operations not done slice by slice yet refused whole. {@code SlicedSalePipelineIT} sells one out.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SlicedSaleApiIT extends ApiTestBase {

    private String slicedSale(int slices, int perUserLimit, long stock) {
        String id = newId();
        String body = activityJson(id, now().minusSeconds(60), now().plusSeconds(3600), perUserLimit,
                item("sku-a", stock));
        Reply created = createActivity(body.substring(0, body.length() - 1) + ",\"slices\":" + slices + "}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return id;
    }

    @Test
    void givenSlices_whenASaleIsCreated_thenItIsKeptAndShown_andACountOutOfRangeIsRefused() {
        String id = slicedSale(3, 1, 30);

        assertThat(get("/api/v1/activities/" + id).json().path("slices").asInt()).isEqualTo(3);
        assertThat(get("/api/v1/activities/" + createOpenActivity(1, item("sku-a", 1))).json().path("slices").asInt())
                .as("a sale created without slices").isEqualTo(1);
        for (int outOfRange : new int[] {0, 65}) {
            String body = activityJson(newId(), now(), now().plusSeconds(60), 1, item("sku-a", 1));
            Reply refused = createActivity(body.substring(0, body.length() - 1) + ",\"slices\":" + outOfRange + "}");
            assertProblem(refused, 400, "VALIDATION");
            assertThat(refused.json().path("errors").get(0).path("field").asString()).isEqualTo("slices");
        }
    }

    @Test
    void givenASaleInSlices_whenWarmedUpOrItsStockRead_thenTheAnswerSaysWhereItsSlicesSit() {
        String id = slicedSale(3, 1, 30);

        Reply warmed = asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);
        Reply stock = asAdmin("GET", "/api/v1/activities/" + id + "/stock", null);

        assertThat(warmed.status()).as(warmed.body()).isEqualTo(200);
        for (Reply reply : List.of(warmed, stock)) {
            JsonNode placement = reply.json().path("placement");
            assertThat(placement.path("slices").asInt()).as(reply.body()).isEqualTo(3);
            assertThat(placement.path("masters").asInt()).as("one server holds every slice").isEqualTo(1);
            assertThat(placement.path("of").asInt()).isEqualTo(1);
            assertThat(placement.path("spread").asBoolean()).isTrue();
        }
    }

    @Test
    void givenASaleInSlices_whenReconciledAndAdjusted_thenEachSliceIsReported_andEachTakesItsPart() {
        String id = slicedSale(3, 1, 30);
        assertThat(asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null).status()).isEqualTo(200);

        Reply reconciled = asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation", null);
        Reply adjusted = proposeAndApprove(id, "{\"skuId\":\"sku-a\",\"delta\":5,\"reason\":\"more from the supplier\"}");

        assertThat(reconciled.status()).as(reconciled.body()).isEqualTo(200);
        assertThat(reconciled.json().path("reports").valueStream().map(report -> report.path("action").asString())
                .toList()).as("one report a slice (ADR 110)").containsExactly("NONE", "NONE", "NONE");
        assertThat(adjusted.status()).as("adjusted slice by slice (ADR 112): " + adjusted.body()).isEqualTo(200);
        assertThat(ledger(id, "sku-a")).as("available, reserved, sold").containsExactly(35, 0, 0);
    }
}
