package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin endpoints of reconciliation and audited stock adjustments (each proposed by one operator and approved by
 * another, as StockAdjustmentApprovalIT tests in detail): their answers and every refusal. The relay is
 * off in this context, so reservations stay RESERVED in Redis and in its outbox: on their way, never drift.
 */
class ReconciliationApiIT extends ApiTestBase {

    private static final String ADMIN = "Authorization";

    @Test
    void givenASaleInSync_whenReconciled_then200WithOneCleanReportPerSkuAndNothingKept() {
        String id = openSale(2, item("sku-a", 10), item("sku-b", 5));
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 2))).status()).isEqualTo(202);

        Reply reconciled = reconcile(id);

        assertThat(reconciled.status()).as(reconciled.body()).isEqualTo(200);
        JsonNode body = reconciled.json();
        assertThat(body.path("activityId").asString()).isEqualTo(id);
        assertThat(body.path("hotStore").asString()).isEqualTo("LOADED");
        assertThat(skus(body.path("reports"))).containsExactly("sku-a", "sku-b");
        JsonNode skuA = body.path("reports").get(0);
        assertThat(skuA.path("classification").asString()).isEqualTo("NONE");
        assertThat(skuA.path("action").asString()).isEqualTo("NONE");
        assertFigures(skuA.path("expected"), 10, 8, 2, 0);
        assertFigures(skuA.path("actual"), 10, 8, 2, 0);
        assertFigures(skuA.path("drift"), 0, 0, 0, 0);
        assertThat(skuA.path("detail").isString()).isTrue();
        assertThat(skuA.path("redriven").isArray()).isTrue();
        assertThat(skuA.path("confirmed").isArray()).isTrue();
        assertThat(skuA.path("released").isArray()).isTrue();
        Reply kept = asAdmin("GET", "/api/v1/activities/" + id + "/reconciliation", null);
        assertThat(kept.status()).as(kept.body()).isEqualTo(200);
        assertThat(kept.json().path("activityId").asString()).isEqualTo(id);
        assertThat(kept.json().path("reports").isEmpty()).as("clean reports are not kept").isTrue();
    }

    @Test
    void givenASaleNotWarmedUp_whenReconciled_thenNotLoadedAndNoReport() {
        String id = newId();
        Reply created = createActivity(activityJson(id, now().plusSeconds(3600), now().plusSeconds(7200), 1,
                item("sku-a", 10)));
        assertThat(created.status()).isEqualTo(201);

        Reply reconciled = reconcile(id);

        assertThat(reconciled.status()).as(reconciled.body()).isEqualTo(200);
        assertThat(reconciled.json().path("hotStore").asString()).isEqualTo("NOT_LOADED");
        assertThat(reconciled.json().path("reports").isEmpty()).isTrue();
    }

    @Test
    void givenNoTokenOrNoSuchSaleOrAnArchivedOne_whenReconciled_then401Or404Or409() {
        String id = openSale(1, item("sku-a", 10));
        assertProblem(post("/api/v1/activities/" + id + "/reconciliation", ""), 401, "UNAUTHORIZED");
        assertProblem(get("/api/v1/activities/" + id + "/reconciliation"), 401, "UNAUTHORIZED");
        assertProblem(post("/api/v1/activities/" + id + "/stock-adjustments", adjustment("sku-a", 1, "r")), 401,
                "UNAUTHORIZED");
        assertProblem(get("/api/v1/activities/" + id + "/stock-adjustments"), 401, "UNAUTHORIZED");

        String unknown = newId();
        assertProblem(reconcile(unknown), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(asAdmin("GET", "/api/v1/activities/" + unknown + "/reconciliation", null), 404,
                "ACTIVITY_NOT_FOUND");
        assertProblem(adjust(unknown, adjustment("sku-a", 1, "r")), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(asAdmin("GET", "/api/v1/activities/" + unknown + "/stock-adjustments", null), 404,
                "ACTIVITY_NOT_FOUND");

        String archived = newId();
        assertThat(createActivity(activityJson(archived, now().minusSeconds(3600), now().minusSeconds(60), 1,
                item("sku-a", 10))).status()).isEqualTo(201);
        assertThat(asAdmin("POST", "/api/v1/activities/" + archived + "/archive", null).status()).isEqualTo(200);
        assertProblem(reconcile(archived), 409, "ACTIVITY_ARCHIVED");
    }

    @Test
    void givenAMaxOutOfRange_whenReportsListed_then400Validation() {
        String id = openSale(1, item("sku-a", 10));
        for (String max : List.of("0", "1001", "-1", "abc")) {
            assertProblem(asAdmin("GET", "/api/v1/activities/" + id + "/reconciliation?max=" + max, null), 400,
                    "VALIDATION");
        }
        assertThat(asAdmin("GET", "/api/v1/activities/" + id + "/reconciliation?max=1000", null).status())
                .isEqualTo(200);
    }

    @Test
    void givenAdjustmentsUpAndDown_whenApproved_thenAppliedInMysqlAndRedisAuditedAndListedOldestFirst() {
        String id = openSale(2, item("sku-a", 10));
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 2))).status()).isEqualTo(202);

        Reply proposed = post("/api/v1/activities/" + id + "/stock-adjustments", adjustment("sku-a", 5,
                "found a pallet"), ADMIN, "Bearer " + OLIVIA_TOKEN, "X-Operator", "ops_jane");
        assertThat(proposed.status()).as(proposed.body()).isEqualTo(202);
        long proposalId = proposed.json().path("id").asLong();
        assertThat(proposed.header("Location"))
                .endsWith("/api/v1/activities/" + id + "/stock-adjustments/proposals/" + proposalId);
        Reply up = asOperator(PETER_TOKEN, "POST", "/api/v1/activities/" + id + "/stock-adjustments/proposals/"
                + proposalId + "/approval", null);
        Reply down = adjust(id, adjustment("sku-a", -3, "damaged in the warehouse"));

        assertThat(up.status()).as(up.body()).isEqualTo(200);
        JsonNode applied = up.json().path("applied").path("adjustment");
        assertThat(up.json().path("proposal").path("adjustmentId").asLong()).isEqualTo(applied.path("id").asLong());
        assertThat(applied.path("skuId").asString()).isEqualTo("sku-a");
        assertThat(applied.path("delta").asLong()).isEqualTo(5);
        assertThat(applied.path("stockBefore").asLong()).isEqualTo(10);
        assertThat(applied.path("stockAfter").asLong()).isEqualTo(15);
        assertThat(applied.path("operator").asString()).as("the token's operator, never a declared one")
                .isEqualTo("olivia");
        assertThat(applied.path("reason").asString()).isEqualTo("found a pallet");
        assertThat(applied.path("createdAt").asString()).isNotBlank();
        assertThat(up.json().path("applied").path("hotStore").asString()).isEqualTo("APPLIED");
        assertThat(up.json().path("applied").path("report").path("classification").asString()).isEqualTo("NONE");
        assertThat(down.status()).as(down.body()).isEqualTo(200);
        assertThat(down.json().path("applied").path("adjustment").path("operator").asString()).isEqualTo("admin");
        assertThat(down.json().path("applied").path("adjustment").path("stockAfter").asLong()).isEqualTo(12);
        assertThat(down.json().path("applied").path("hotStore").asString()).isEqualTo("APPLIED");
        assertFigures(down.json().path("applied").path("report").path("actual"), 12, 10, 2, 0);
        assertThat(ledger(id, "sku-a")).containsExactly(10, 2, 0);

        Reply listed = asAdmin("GET", "/api/v1/activities/" + id + "/stock-adjustments", null);
        assertThat(listed.status()).as(listed.body()).isEqualTo(200);
        assertThat(listed.json().path("activityId").asString()).isEqualTo(id);
        List<Long> deltas = new ArrayList<>();
        listed.json().path("adjustments").forEach(a -> deltas.add(a.path("delta").asLong()));
        assertThat(deltas).containsExactly(5L, -3L);
    }

    @Test
    void givenASaleNotWarmedUp_whenAdjusted_thenMysqlTakesItAndRedisLoadsTheNewTotal() {
        String id = createOpenActivity(1, item("sku-a", 10));

        Reply adjusted = adjust(id, adjustment("sku-a", 4, "late delivery"));

        assertThat(adjusted.status()).as(adjusted.body()).isEqualTo(200);
        assertThat(adjusted.json().path("applied").path("hotStore").asString()).isEqualTo("NOT_LOADED");
        assertThat(adjusted.json().path("applied").path("report").isNull()).isTrue();
        assertThat(adjusted.json().path("reconciliation").path("hotStore").asString())
                .as("the sale's reconciliation loads an open sale the hot store does not hold").isEqualTo("REBUILT");
        assertThat(asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null).status()).isEqualTo(200);
        assertThat(ledger(id, "sku-a")).containsExactly(14, 0, 0);
    }

    @Test
    void givenARefusedAdjustment_whenApproved_thenBelowSoldOrAboveMaximumOrUnknownSkuAndNothingChanged() {
        String id = openSale(1, item("sku-a", 10));
        assertThat(reserve(id, "buyer-1", lines(null, line("sku-a", 1))).status()).isEqualTo(202);
        String full = openSale(1, item("sku-a", 1_000_000_000L));

        Reply belowSold = adjust(id, adjustment("sku-a", -11, "oops"));
        Reply aboveMaximum = adjust(full, adjustment("sku-a", 1, "one more"));
        Reply unknownSku = adjust(id, adjustment("sku-z", 1, "other"));

        assertProblem(belowSold, 409, "STOCK_BELOW_SOLD");
        assertThat(belowSold.json().path("stock").asLong()).as("the total now").isEqualTo(10);
        assertThat(belowSold.json().path("sold").asLong()).as("no order recorded yet").isZero();
        assertProblem(aboveMaximum, 422, "STOCK_ABOVE_MAXIMUM");
        assertThat(aboveMaximum.json().path("stock").asLong()).isEqualTo(1_000_000_000L);
        assertProblem(unknownSku, 404, "SKU_NOT_FOUND");
        assertThat(asAdmin("GET", "/api/v1/activities/" + id + "/stock-adjustments", null).json()
                .path("adjustments").isEmpty()).isTrue();
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenABadAdjustmentBody_whenPosted_then400ValidationAndNothingRecorded() {
        String id = openSale(1, item("sku-a", 10));
        List<String> bad = List.of(
                adjustment("sku-a", 0, "nothing"),
                adjustment("sku-a", 1_000_000_001L, "too many"),
                adjustment("sku-a", -1_000_000_001L, "too few"),
                adjustment("sku-a", 1, ""),
                adjustment("sku-a", 1, "x".repeat(501)),
                adjustment("sku-a", 1, "line\\nbreak"),
                adjustment("bad sku", 1, "r"),
                "{\"skuId\":\"sku-a\",\"reason\":\"no delta\"}",
                "{\"skuId\":\"sku-a\",\"delta\":1}",
                "{\"skuId\":\"sku-a\",\"delta\":1.5,\"reason\":\"r\"}",
                "not json");
        for (String body : bad) {
            assertProblem(adjust(id, body), 400, "VALIDATION");
        }
        assertThat(asAdmin("GET", "/api/v1/activities/" + id + "/stock-adjustments", null).json()
                .path("adjustments").isEmpty()).isTrue();
        assertThat(adjust(id, adjustment("sku-a", 1, "x".repeat(500))).status()).isEqualTo(200);
    }

    private Reply reconcile(String activityId) {
        return asAdmin("POST", "/api/v1/activities/" + activityId + "/reconciliation", null);
    }

    private Reply adjust(String activityId, String body) {
        return proposeAndApprove(activityId, body);
    }

    private static String adjustment(String skuId, long delta, String reason) {
        return "{\"skuId\":\"" + skuId + "\",\"delta\":" + delta + ",\"reason\":\"" + reason + "\"}";
    }

    private static List<String> skus(JsonNode reports) {
        List<String> skus = new ArrayList<>();
        reports.forEach(report -> skus.add(report.path("skuId").asString()));
        return skus;
    }

    static void assertFigures(JsonNode figures, long total, long available, long reserved, long sold) {
        assertThat(figures.path("total").asLong()).as("total in " + figures).isEqualTo(total);
        assertThat(figures.path("available").asLong()).as("available in " + figures).isEqualTo(available);
        assertThat(figures.path("reserved").asLong()).as("reserved in " + figures).isEqualTo(reserved);
        assertThat(figures.path("sold").asLong()).as("sold in " + figures).isEqualTo(sold);
    }
}
