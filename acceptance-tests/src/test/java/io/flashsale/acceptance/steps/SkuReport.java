package io.flashsale.acceptance.steps;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** One SKU's part of a reconciliation report: what was found, what was done, and the reservations acted on. */
record SkuReport(String skuId, String classification, String action, JsonNode expected, JsonNode actual,
                 JsonNode drift, int holdingMismatches, List<String> redriven, List<String> confirmed, List<String> released) {

    static final String NONE = "NONE";

    static SkuReport from(JsonNode report) {
        return new SkuReport(report.path("skuId").asString(""), report.path("classification").asString(""),
                report.path("action").asString(""), report.path("expected"), report.path("actual"),
                report.path("drift"), report.path("holdings").size(), ids(report.path("redriven")), ids(report.path("confirmed")),
                ids(report.path("released")));
    }

    /** Nothing found and nothing done: the fast store showed what the books say, with what is on its way. */
    boolean isClean() {
        return NONE.equals(classification) && NONE.equals(action) && driftIsZero()
                && holdingMismatches == 0;
    }

    /** The drift as a number or as figures by name: zero either way when both stores agree. */
    boolean driftIsZero() {
        if (drift.isMissingNode() || drift.isNull()) {
            return true;
        }
        if (drift.isNumber()) {
            return drift.asLong() == 0;
        }
        for (JsonNode figure : drift) {
            if (figure.isNumber() && figure.asLong() != 0) {
                return false;
            }
        }
        return true;
    }

    /** A figure of the expected or actual side, checked to be a JSON integer. */
    static long figure(JsonNode side, String name) {
        JsonNode value = side.path(name);
        assertThat(value.isIntegralNumber()).as("figure %s is a JSON integer in %s", name, side).isTrue();
        return value.asLong();
    }

    private static List<String> ids(JsonNode array) {
        List<String> ids = new ArrayList<>();
        for (JsonNode id : array) {
            ids.add(id.isString() ? id.asString() : id.path("reservationId").asString(id.toString()));
        }
        return ids;
    }
}
