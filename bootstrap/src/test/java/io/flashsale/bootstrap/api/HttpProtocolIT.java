package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;

import java.net.http.HttpRequest;

import static org.assertj.core.api.Assertions.assertThat;

class HttpProtocolIT extends ApiTestBase {

    @Test
    void givenAnUnknownPath_whenCalled_then404NotFoundProblem() {
        assertProblem(get("/nope"), 404, "NOT_FOUND");
        assertProblem(post("/api/v2/activities", "{}"), 404, "NOT_FOUND");
        assertProblem(get("/api/v1/reservations"), 404, "NOT_FOUND");
        // The container's error path asked for directly (defect 9 of docs/reliability.md: it was a 500).
        assertProblem(get("/error"), 404, "NOT_FOUND");
        assertProblem(post("/error", "{}"), 404, "NOT_FOUND");
    }

    @Test
    void givenAPathTheServerRefusesToDecode_whenCalled_then400ProblemNotAnHtmlPage() {
        for (String path : new String[] {"/api/v1/activities/abc%2Fdef", "/api/v1/activities/abc%00",
                "/api/v1/reservations/a%5Cb", "/api/v1/activities/..%2F..%2Fetc"}) {
            Reply refused = get(path, buyerHeader(), signedIn("alice"));

            assertProblem(refused, 400, "VALIDATION");
            assertThat(refused.body()).doesNotContain("<html", "Tomcat");
        }
    }

    @Test
    void givenAMethodTheResourceDoesNotHave_whenCalled_then405WithAllow() {
        String id = openSale(1, item("sku-a", 10));

        Reply delete = send(request("/api/v1/activities/" + id, "Authorization", "Bearer " + ADMIN_TOKEN).DELETE());
        Reply put = send(request("/api/v1/activities/" + id + "/reservations", buyerHeader(), signedIn("alice"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1)))));

        // GET /api/v1/activities lists the sales (admin); the collection takes no DELETE.
        Reply deleteAll = send(request("/api/v1/activities", "Authorization", "Bearer " + ADMIN_TOKEN).DELETE());
        assertProblem(deleteAll, 405, "METHOD_NOT_ALLOWED");
        assertThat(deleteAll.header("Allow")).contains("GET", "POST");
        assertProblem(delete, 405, "METHOD_NOT_ALLOWED");
        assertThat(delete.header("Allow")).contains("GET");
        assertProblem(put, 405, "METHOD_NOT_ALLOWED");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    /**
     * Found by the fuzzer: with negotiation, an Accept header it could not parse got the status and no body; and one
     * Spring's parser fails on with an IndexOutOfBoundsException (an unterminated quote) got a 500; so did such a
     * header on a path no controller maps ({@code "/r1372R}), where Spring Boot's welcome-page mapping parses it.
     */
    @Test
    void givenAnAcceptHeaderThatIsUnparseableOrNamesOtherTypes_whenRefused_thenTheProblemIsStillProblemJson() {
        String id = openSale(1, item("sku-a", 10));
        for (String accept : new String[] {"/api+v1", "text/html", "application/xml;q=1", "*/*;;", "\"a/n",
                "\"/r1372R"}) {
            assertProblem(get("/api/v1/reservations/" + id + ".x/cancellation", buyerHeader(), signedIn("alice"),
                    "Accept", accept),
                    405, "METHOD_NOT_ALLOWED");
            assertProblem(get("/api/v1/activities/no-such-sale", "Accept", accept), 404, "ACTIVITY_NOT_FOUND");
            assertProblem(get("/api/v1/activities/", "Authorization", "Bearer " + ADMIN_TOKEN, "Accept", accept),
                    404, "NOT_FOUND");
        }
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    /**
     * Found by the fuzzer (defect 15): Spring MVC negotiates after the handler, so a reservation sent with
     * {@code Accept: image/*} took its units and was answered 406. A change is refused before it acts now.
     */
    @Test
    void givenAnAcceptHeaderThatRulesOutJson_whenAChangeIsAsked_then406BeforeAnythingMoves() {
        String id = openSale(1, item("sku-a", 10));
        String path = "/api/v1/activities/" + id + "/reservations";
        for (String accept : new String[] {"image/*", "text/html", "application/xml;q=1", "application/json;q=0",
                "/api+v1", "\"a/n"}) {
            Reply refused = send(request(path, buyerHeader(), signedIn("alice"), "Accept", accept)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1)))));

            assertProblem(refused, 406, "NOT_ACCEPTABLE");
        }
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);

        Reply reserved = send(request(path, buyerHeader(), signedIn("alice"), "Accept",
                "image/*, application/json;q=0.5")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1)))));
        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenABodyThatIsNotJson_whenReserved_then415AndNothingChanges() {
        String id = openSale(1, item("sku-a", 10));
        for (String type : new String[] {"text/plain", "application/xml", "application/x-www-form-urlencoded"}) {
            Reply refused = send(request("/api/v1/activities/" + id + "/reservations", buyerHeader(), signedIn("alice"))
                    .header("Content-Type", type)
                    .POST(HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1)))));

            assertProblem(refused, 415, "UNSUPPORTED_MEDIA_TYPE");
        }
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    /** Found by the fuzzer (defect 14): undecodable bytes in a form body made Tomcat's parameter parsing a 500. */
    @Test
    void givenAFormBodyOrAQueryStringThatIsNotUtf8_whenSent_thenAClientErrorProblemAndNothingChanges() {
        String id = openSale(1, item("sku-a", 10));
        byte[] undecodable = {(byte) 0xC3, (byte) 0x28, '=', (byte) 0xFF, (byte) 0xFE, '&', 'x', '=', (byte) 0x80};

        Reply form = send(request("/api/v1/activities/" + id + "/reservations", buyerHeader(), signedIn("alice"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofByteArray(undecodable)));
        Reply query = get("/api/v1/activities/" + id + "/reconciliation?max=%C3%28&x=%FF%FE", "Authorization",
                "Bearer " + ADMIN_TOKEN);

        assertProblem(form, 415, "UNSUPPORTED_MEDIA_TYPE");
        assertProblem(query, 400, "REQUEST_REJECTED");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenAFailureInsideTheService_whenCalled_then500InternalWithoutItsDetails() {
        Reply failed = get("/api/v1/test-only/failure");

        assertProblem(failed, 500, "INTERNAL");
        assertThat(failed.body()).doesNotContain(FailingController.SECRET, "IllegalStateException", "internal detail",
                "at io.flashsale", "trace");
    }

    @Test
    void givenTheService_whenHealthIsAsked_thenUp() {
        Reply health = operator("/actuator/health");

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().path("status").asString()).isEqualTo("UP");
    }
}
