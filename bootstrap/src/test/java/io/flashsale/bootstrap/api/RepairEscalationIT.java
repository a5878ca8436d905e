package io.flashsale.bootstrap.api;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.metrics.MicrometerReconciliationMetrics;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ADR 85 over HTTP on the real servers, with the default auto-repair limit of 10 units: Redis damaged behind the
 * service's back by more than the limit is left as found and waits for an operator; within it, it is repaired at once.
 * The database of record holds the sale as created (nothing sold: the relay is off in this context), so every unit
 * Redis counts as sold is drift.
 */
class RepairEscalationIT extends ApiTestBase {

    private static final String SKU = "sku-a";

    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();
    @Autowired
    MeterRegistry meters;

    @Test
    void givenDriftAboveTheLimit_whenReconciled_thenLeftAsFoundUntilAnOperatorApprovesThenRepairedToMysqlsTruth() {
        String id = openSale(2, item(SKU, 50));
        driftSold(id, 15);

        JsonNode held = onlyReport(reconcile(id));

        assertThat(held.path("action").asString()).as(held.toString()).isEqualTo("NEEDS_REVIEW");
        assertThat(held.path("driftUnits").asLong()).isEqualTo(15);
        assertThat(held.path("detail").asString()).contains("above the automatic repair's limit of 10");
        assertThat(redisSold(id)).as("Redis sold, not repaired").isEqualTo(15);
        assertThat(reviewGauge(id)).isEqualTo(15);
        assertThat(scrape()).contains("flashsale_reconciliation_review_units{activity=\"" + id + "\",sku=\"" + SKU
                + "\"} 15.0");
        JsonNode waiting = reviews(id);
        assertThat(waiting.size()).as(waiting.toString()).isEqualTo(1);
        assertThat(waiting.get(0).path("skuId").asString()).isEqualTo(SKU);
        assertThat(waiting.get(0).path("driftUnits").asLong()).isEqualTo(15);
        // Reconciled again while it waits: still left as found, still one SKU waiting.
        assertThat(onlyReport(reconcile(id)).path("action").asString()).isEqualTo("NEEDS_REVIEW");
        assertThat(reviews(id).size()).isEqualTo(1);
        assertThat(redisSold(id)).isEqualTo(15);

        // The residual grows before the operator approves: the approval repairs today's 20, from MySQL's figures.
        driftSold(id, 5);
        Reply approved = approve(id, SKU);

        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        assertThat(approved.json().path("action").asString()).isEqualTo("REPAIRED");
        assertThat(approved.json().path("driftUnits").asLong()).isEqualTo(20);
        assertThat(approved.json().path("detail").asString()).contains("repair approved by admin");
        assertThat(ledger(id, SKU)).as("Redis available, reserved, sold").containsExactly(50, 0, 0);
        assertThat(reviews(id).isEmpty()).isTrue();
        assertThat(reviewGauge(id)).isZero();
        assertThat(onlyReport(reconcile(id)).path("action").asString()).isEqualTo("NONE");
        assertProblem(approve(id, SKU), 409, "NO_REPAIR_AWAITING_APPROVAL");
        Reply kept = asAdmin("GET", "/api/v1/activities/" + id + "/reconciliation", null);
        assertThat(kept.json().path("reports").get(0).path("detail").asString()).as("the approval's audit, newest")
                .contains("repair approved by admin");
    }

    @Test
    void givenDriftWithinTheLimit_whenReconciled_thenRepairedAtOnceAndNothingWaits() {
        String id = openSale(2, item(SKU, 50));
        driftSold(id, 10);

        JsonNode repaired = onlyReport(reconcile(id));

        assertThat(repaired.path("action").asString()).as(repaired.toString()).isEqualTo("REPAIRED");
        assertThat(repaired.path("driftUnits").asLong()).isEqualTo(10);
        assertThat(ledger(id, SKU)).containsExactly(50, 0, 0);
        assertThat(reviews(id).isEmpty()).isTrue();
        assertProblem(approve(id, SKU), 409, "NO_REPAIR_AWAITING_APPROVAL");
    }

    @Test
    void givenNoTokenOrNoSuchSaleOrSku_whenApprovedOrListed_then401Or404() {
        String id = openSale(2, item(SKU, 50));
        assertProblem(post("/api/v1/activities/" + id + "/reconciliation/" + SKU + "/approve-repair", ""), 401,
                "UNAUTHORIZED");
        assertProblem(get("/api/v1/activities/" + id + "/reconciliation/reviews"), 401, "UNAUTHORIZED");
        assertProblem(approve(newId(), SKU), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(asAdmin("GET", "/api/v1/activities/" + newId() + "/reconciliation/reviews", null), 404,
                "ACTIVITY_NOT_FOUND");
        assertProblem(approve(id, "no-such-sku"), 404, "SKU_NOT_FOUND");
        assertProblem(approve(id, "bad%20sku"), 404, "SKU_NOT_FOUND");
    }

    /** Redis counts {@code units} more as sold than it did, behind the service's back. */
    private void driftSold(String id, long units) {
        redis.sync().hincrby(RedisKeys.stock(new ActivityId(id)), RedisKeys.stockField(new SkuId(SKU), "sold"), units);
    }

    /** Read from Redis itself: the service's stock read answers 503 STOCK_FIGURES_UNDER_REPAIR while they do not add up. */
    private long redisSold(String id) {
        return Long.parseLong(redis.sync().hget(RedisKeys.stock(new ActivityId(id)),
                RedisKeys.stockField(new SkuId(SKU), "sold")));
    }

    private Reply reconcile(String id) {
        Reply reply = asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation", null);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        return reply;
    }

    private static JsonNode onlyReport(Reply reconciled) {
        JsonNode reports = reconciled.json().path("reports");
        assertThat(reports.size()).as(reconciled.body()).isEqualTo(1);
        return reports.get(0);
    }

    private JsonNode reviews(String id) {
        Reply reply = asAdmin("GET", "/api/v1/activities/" + id + "/reconciliation/reviews", null);
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.json().path("activityId").asString()).isEqualTo(id);
        return reply.json().path("reports");
    }

    private Reply approve(String id, String sku) {
        return asAdmin("POST", "/api/v1/activities/" + id + "/reconciliation/" + sku + "/approve-repair", null);
    }

    private double reviewGauge(String id) {
        return meters.get(MicrometerReconciliationMetrics.REVIEW)
                .tag(MicrometerReconciliationMetrics.ACTIVITY, id)
                .tag(MicrometerReconciliationMetrics.SKU, SKU).gauge().value();
    }

    private String scrape() {
        Reply scraped = operator("/actuator/prometheus");
        assertThat(scraped.status()).as(scraped.body()).isEqualTo(200);
        return scraped.body();
    }
}
