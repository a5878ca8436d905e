package io.flashsale.bootstrap.api;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.bootstrap.testing.TestRedis;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis's figures for a SKU damaged behind the service's back until they contradict each other: the stock read answers
 * 503 {@code STOCK_FIGURES_UNDER_REPAIR} with {@code Retry-After} (reconciliation repairs from the database of record),
 * never a 500.
 */
class DriftedStockFiguresIT extends ApiTestBase {

    private static final String SKU = "sku-a";

    private final StatefulRedisConnection<String, String> redis = TestRedis.connection();

    @Test
    void givenSegmentsThatDoNotSumToTheLedger_whenTheStockIsRead_then503UnderRepairWithRetryAfter() {
        String id = openSale(2, item(SKU, 50));
        assertThat(ledger(id, SKU)).containsExactly(50, 0, 0);

        redis.sync().hincrby(RedisKeys.stock(new ActivityId(id)), RedisKeys.segmentField(new SkuId(SKU), 1), 3);

        assertUnderRepair(asAdmin("GET", "/api/v1/activities/" + id + "/stock", null));
    }

    @Test
    void givenALedgerSellingMoreThanItsTotal_whenTheStockIsRead_then503UnderRepairWithRetryAfter() {
        String id = openSale(2, item(SKU, 50));

        redis.sync().hincrby(RedisKeys.stock(new ActivityId(id)), RedisKeys.stockField(new SkuId(SKU), "sold"), 51);

        assertUnderRepair(asAdmin("GET", "/api/v1/activities/" + id + "/stock", null));
    }

    private static void assertUnderRepair(Reply reply) {
        assertProblem(reply, 503, "STOCK_FIGURES_UNDER_REPAIR");
        assertThat(reply.header("Retry-After")).as(reply.body()).isNotBlank();
        assertThat(reply.json().path("detail").asString()).contains("being repaired");
    }
}
