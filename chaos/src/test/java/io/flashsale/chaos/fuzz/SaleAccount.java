package io.flashsale.chaos.fuzz;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the answers told this run about the fuzzed sale: the reservations granted (202), the cancellations confirmed,
 * and so how many units each SKU must have available after every request. A request without the operator's token
 * may move available units only as its answer says: down by a new reservation's lines, up by a first cancellation's.
 */
final class SaleAccount {

    private static final JsonMapper CLAIMS = JsonMapper.builder().build();

    /** A reservation answered 202 (its first answer), with the buyer that asked and the lines it was granted. */
    record Granted(String id, String buyer, Map<String, Long> lines) {
    }

    private final String saleId;
    private final Map<String, Granted> granted = new LinkedHashMap<>();
    private final List<Granted> inOrder = new ArrayList<>();
    private final Set<String> cancelled = new HashSet<>();
    private Map<String, Long> expectedAvailable;

    SaleAccount(String saleId) {
        this.saleId = saleId;
    }

    List<Granted> granted() {
        return Collections.unmodifiableList(inOrder);
    }

    Set<String> cancelled() {
        return Collections.unmodifiableSet(cancelled);
    }

    void baseline(Map<String, Long> availableNow) {
        expectedAvailable = new LinkedHashMap<>(availableNow);
    }

    /** Takes in the answer, then holds the sale's available units (as read after it) against what the answers say. */
    void settle(FuzzedRequest request, Answer answer, Map<String, Long> availableNow) {
        record(request, answer);
        if (request.admin()) {
            baseline(availableNow);
            return;
        }
        assertThat(availableNow).as("available units after %s was answered %s (expected from every answer so far)",
                request, answer).isEqualTo(expectedAvailable);
    }

    private void record(FuzzedRequest request, Answer answer) {
        if (answer.status() != 200 && answer.status() != 202) {
            return;
        }
        JsonNode json = answer.json();
        if (json == null || !saleId.equals(json.path("activityId").asString(null))) {
            return;
        }
        String id = json.path("reservationId").asString(null);
        if (id == null) {
            return;
        }
        Map<String, Long> lines = lines(json.path("items"));
        Granted known = granted.get(id);
        if (answer.status() == 202 && known == null) {
            Granted reservation = new Granted(id, buyerOf(request), lines);
            granted.put(id, reservation);
            inOrder.add(reservation);
            move(lines, -1);
        } else if (answer.status() == 202) {
            assertThat(lines).as("lines of %s replayed by %s", id, request).isEqualTo(known.lines());
        } else if ("CANCELLED".equals(json.path("status").asString(null)) && cancelled.add(id)) {
            move(lines, +1);
        }
    }

    private void move(Map<String, Long> lines, int sign) {
        lines.forEach((sku, units) -> expectedAvailable.merge(sku, sign * units, Long::sum));
    }

    private static Map<String, Long> lines(JsonNode items) {
        Map<String, Long> lines = new LinkedHashMap<>();
        items.forEach(item -> lines.merge(item.path("skuId").asString(), item.path("quantity").asLong(), Long::sum));
        return lines;
    }

    /** The buyer an accepted request was signed in as: its one bearer token's subject. */
    private static String buyerOf(FuzzedRequest request) {
        return request.headers().stream().filter(header -> header.name().equalsIgnoreCase("Authorization"))
                .map(header -> header.value().strip()) // Tomcat strips HTTP's OWS
                .filter(value -> value.startsWith("Bearer ") && value.split("\\.").length == 3)
                .map(SaleAccount::subjectOf)
                .findFirst().orElse("");
    }

    private static String subjectOf(String bearer) {
        try {
            byte[] claims = Base64.getUrlDecoder().decode(bearer.substring("Bearer ".length()).split("\\.")[1]);
            return CLAIMS.readTree(claims).path("sub").asString("");
        } catch (RuntimeException notAToken) {
            return "";
        }
    }
}
