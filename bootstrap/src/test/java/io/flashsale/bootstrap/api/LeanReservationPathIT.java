package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plain reservation attempt is answered by the lean filter, any other by the controller (ADR 35). A body sent
 * as {@code application/json;charset=UTF-8} means the same to the API but is not plain, so it takes the controller:
 * every outcome is asked both ways here and must get the same status, headers and body.
 */
@Timeout(120)
class LeanReservationPathIT extends ApiTestBase {

    private static final String LEAN = "application/json";
    private static final String MVC = "application/json;charset=UTF-8";

    @Test
    void givenStockLeft_whenReservedBothWays_thenTheSame202() {
        String id = openSale(1, item("sku-a", 10));

        Reply lean = attempt(LEAN, id, "alice", lines(null, line("sku-a", 1)));
        Reply mvc = attempt(MVC, id, "bob", lines(null, line("sku-a", 1)));

        assertThat(lean.status()).as(lean.body()).isEqualTo(202);
        assertSame(lean, mvc, "reservationId");
        assertThat(lean.header("Location")).isEqualTo("/api/v1/reservations/" + lean.json().path("reservationId").asString());
        assertThat(mvc.header("Location")).isEqualTo("/api/v1/reservations/" + mvc.json().path("reservationId").asString());
        assertThat(ledger(id, "sku-a")).containsExactly(8, 2, 0);
    }

    @Test
    void givenAnIdempotencyKey_whenRetriedEachWay_thenTheSameReservationAndOneDeduction() {
        String id = openSale(1, item("sku-a", 10));

        Reply first = attempt(LEAN, id, "alice", lines(null, line("sku-a", 1)), "Idempotency-Key", "key-1");
        Reply mvc = attempt(MVC, id, "alice", lines(null, line("sku-a", 1)), "Idempotency-Key", "key-1");
        Reply lean = attempt(LEAN, id, "alice", lines("key-1", line("sku-a", 1)));

        assertThat(first.status()).as(first.body()).isEqualTo(202);
        assertSame(first, mvc);
        assertSame(first, lean);
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenEveryRefusalOfAnOpenSale_whenAskedBothWays_thenTheSameProblems() {
        String soldOut = openSale(1, item("sku-a", 1));
        attempt(LEAN, soldOut, "alice", lines(null, line("sku-a", 1)));
        String limited = openSale(1, item("sku-a", 10));
        attempt(LEAN, limited, "alice", lines(null, line("sku-a", 1)));
        String scarce = openSale(5, item("sku-a", 2));

        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {soldOut, "bob", lines(null, line("sku-a", 1)), "409", "SOLD_OUT"});
        cases.add(new String[] {limited, "alice", lines(null, line("sku-a", 1)), "409", "LIMIT_EXCEEDED"});
        cases.add(new String[] {scarce, "carol", lines(null, line("sku-a", 3)), "409", "INSUFFICIENT_STOCK"});
        cases.add(new String[] {scarce, "carol", lines(null, line("sku-a", 1), line("sku-x", 1)), "422", "UNKNOWN_SKU"});
        cases.add(new String[] {scarce, "carol", lines(null, line("sku-a", 1), line("sku-a", 1)), "400", "VALIDATION"});
        cases.add(new String[] {newId(), "carol", lines(null, line("sku-a", 1)), "404", "ACTIVITY_NOT_FOUND"});
        cases.add(new String[] {createOpenActivity(1, item("sku-a", 1)), "carol", lines(null, line("sku-a", 1)),
                "503", "NOT_READY"});
        for (String[] c : cases) {
            Reply lean = attempt(LEAN, c[0], c[1], c[2]);
            Reply mvc = attempt(MVC, c[0], c[1], c[2]);
            assertProblem(lean, Integer.parseInt(c[3]), c[4]);
            assertSame(lean, mvc);
        }
        assertThat(ledger(soldOut, "sku-a")).containsExactly(0, 1, 0);
        assertThat(ledger(limited, "sku-a")).containsExactly(9, 1, 0);
        assertThat(ledger(scarce, "sku-a")).containsExactly(2, 0, 0);
    }

    @Test
    void givenASaleOutsideItsWindow_whenAskedBothWays_thenTheSameProblems() {
        String notStarted = newId();
        Instant startsAt = now().plusSeconds(3600);
        createActivity(activityJson(notStarted, startsAt, startsAt.plusSeconds(3600), 1, item("sku-a", 10)));
        asAdmin("POST", "/api/v1/activities/" + notStarted + "/warm-up", null);
        String ended = newId();
        Instant endsAt = now().minusSeconds(60);
        createActivity(activityJson(ended, endsAt.minusSeconds(3600), endsAt, 1, item("sku-a", 10)));
        asAdmin("POST", "/api/v1/activities/" + ended + "/warm-up", null);

        for (String[] c : List.of(new String[] {notStarted, "NOT_STARTED"}, new String[] {ended, "ENDED"})) {
            Reply lean = attempt(LEAN, c[0], "alice", lines(null, line("sku-a", 1)));
            Reply mvc = attempt(MVC, c[0], "alice", lines(null, line("sku-a", 1)));
            assertProblem(lean, 409, c[1]);
            assertSame(lean, mvc);
        }
    }

    @Test
    void givenInputTheLeanPathDoesNotTake_whenSentPlainly_thenTheControllersOwnRefusals() {
        String id = openSale(1, item("sku-a", 10));

        assertProblem(attempt(LEAN, id, "bad buyer", lines(null, line("sku-a", 1))), 401, "TOKEN_INVALID");
        assertProblem(attempt(LEAN, id, "alice", "null"), 400, "VALIDATION");
        assertProblem(attempt(LEAN, id, "alice", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":\"1\"}]}"), 400,
                "VALIDATION");
        Reply fields = attempt(LEAN, id, "alice", lines("bad key!", line("bad sku!", 0)));
        assertProblem(fields, 400, "VALIDATION");
        assertThat(fields.json().path("errors")).hasSize(3);
        assertProblem(attempt(LEAN, id, "alice", "{\"items\":[]}"), 400, "VALIDATION");
        assertProblem(attempt(LEAN, id, "alice", "{\"items\":[{\"skuId\":\"sku-a\",\"quantity\":1}]} trailing"), 400,
                "VALIDATION");
        assertProblem(attempt(LEAN, id, "alice", lines(null, line("sku-a", 1)), "Idempotency-Key", "a b"), 400,
                "VALIDATION");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    private Reply attempt(String contentType, String activityId, String buyer, String body, String... headers) {
        var request = request("/api/v1/activities/" + activityId + "/reservations", headers)
                .header(buyerHeader(), signedIn(buyer)).header("Content-Type", contentType)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        return send(request);
    }

    /** Same status, content type, Location presence, Retry-After and body (but for the named fields). */
    private static void assertSame(Reply lean, Reply mvc, String... differing) {
        assertThat(lean.status()).as("status, lean %s / mvc %s", lean.body(), mvc.body()).isEqualTo(mvc.status());
        assertThat(lean.header("Content-Type")).isEqualTo(mvc.header("Content-Type"));
        assertThat(lean.header("Retry-After")).isEqualTo(mvc.header("Retry-After"));
        assertThat(lean.header("Location") == null).isEqualTo(mvc.header("Location") == null);
        if (differing.length == 0) {
            assertThat(lean.header("Location")).isEqualTo(mvc.header("Location"));
        }
        assertThat(without(lean.json(), differing)).isEqualTo(without(mvc.json(), differing));
    }

    private static JsonNode without(JsonNode body, String... fields) {
        ObjectNode copy = ((ObjectNode) body).deepCopy();
        for (String field : fields) {
            copy.remove(field);
        }
        return copy;
    }
}
