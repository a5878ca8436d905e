package io.flashsale.acceptance.steps;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** One SKU's ledger in the admin's stock view. */
record StockLine(String skuId, long total, long available, long reserved, long sold) {

    static StockLine from(JsonNode item) {
        return new StockLine(item.path("skuId").asString(""),
                integer(item, "total"), integer(item, "available"), integer(item, "reserved"), integer(item, "sold"));
    }

    private static long integer(JsonNode item, String field) {
        JsonNode value = item.path(field);
        assertThat(value.isIntegralNumber())
                .as("stock field %s is a JSON integer in %s", field, item)
                .isTrue();
        return value.asLong();
    }

    long taken() {
        return reserved + sold;
    }
}
