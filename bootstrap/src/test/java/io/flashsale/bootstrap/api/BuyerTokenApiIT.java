package io.flashsale.bootstrap.api;

import io.flashsale.testsupport.TestBuyerTokens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code flashsale.security.buyer-auth=jwt}: the buyer is the subject of a bearer token signed by the configured key,
 * on the lean path and the controller's alike (ADR 76); anything else is a 401 with a stable code.
 */
@Timeout(120)
class BuyerTokenApiIT extends ApiTestBase {

    private static final TestBuyerTokens ISSUER = TestBuyerTokens.rsa();
    private static final String LEAN = "application/json";
    private static final String MVC = "application/json;charset=UTF-8";

    @DynamicPropertySource
    static void buyerTokens(DynamicPropertyRegistry registry) {
        registry.add("flashsale.security.buyer-auth", () -> "jwt");
        // The buyer's own payment call is on here, so that paying someone else's order is refused for its owner.
        registry.add("flashsale.payment.buyer-confirms", () -> "true");
        registry.add("spring.security.oauth2.resourceserver.jwt.public-key-location", ISSUER::publicKeyLocation);
    }

    @Test
    void givenAValidToken_whenReservingOnTheLeanAndTheControllerPaths_then202AndTheReservationIsTheTokensBuyers() {
        String id = openSale(1, item("sku-a", 10));

        Reply lean = attempt(LEAN, id, ISSUER.forBuyer("alice"));
        Reply mvc = attempt(MVC, id, ISSUER.forBuyer("bob"));

        assertThat(lean.status()).as(lean.body()).isEqualTo(202);
        assertThat(mvc.status()).as(mvc.body()).isEqualTo(202);
        Reply read = get("/api/v1/reservations/" + lean.json().path("reservationId").asString(), bearer("alice"));
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        assertThat(read.json().path("status").asString()).as("alice's own, which only she may read").isEqualTo("RESERVED");
        assertThat(ledger(id, "sku-a")).containsExactly(8, 2, 0);
    }

    @Test
    void givenNoOrABadToken_whenReservingEitherWay_then401WithItsCodeAndNothingReserved() {
        String id = openSale(1, item("sku-a", 10));
        Map<String, Object> alice = TestBuyerTokens.claims("alice", Instant.now().plusSeconds(600));
        String[][] cases = {
                {null, "TOKEN_MISSING"},
                {TestBuyerTokens.newRsa().token(alice), "TOKEN_INVALID"},                 // another key
                {ISSUER.token("HS256", alice), "TOKEN_INVALID"},                         // algorithm confusion
                {ISSUER.token("RS512", alice), "TOKEN_INVALID"},                         // an algorithm not accepted
                {ISSUER.token("none", alice), "TOKEN_INVALID"},                          // unsigned
                {ISSUER.token(TestBuyerTokens.claims("alice", Instant.now().minusSeconds(120))), "TOKEN_EXPIRED"}};
        for (String contentType : new String[] {LEAN, MVC}) {
            for (String[] c : cases) {
                Reply refused = attempt(contentType, id, c[0]);
                assertProblem(refused, 401, c[1]);
                assertThat(refused.header("WWW-Authenticate")).isEqualTo("Bearer");
            }
        }
        assertProblem(post("/api/v1/activities/" + id + "/reservations", lines(null, line("sku-a", 1)),
                "X-User-Id", "alice"), 401, "TOKEN_MISSING");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenBobsReservation_whenAliceReadsCancelsOrPaysIt_then404AndItStaysBobs() {
        String id = openSale(1, item("sku-a", 10));
        String bobs = attempt(LEAN, id, ISSUER.forBuyer("bob")).json().path("reservationId").asString();
        String base = "/api/v1/reservations/" + bobs;

        assertProblem(get(base, bearer("alice")), 404, "RESERVATION_NOT_FOUND");
        assertProblem(post(base + "/cancellation", "", bearer("alice")), 404, "RESERVATION_NOT_FOUND");
        assertProblem(post(base + "/payment", "", bearer("alice")), 404, "RESERVATION_NOT_FOUND");
        assertProblem(get(base, "X-User-Id", "bob"), 401, "TOKEN_MISSING");
        assertThat(get(base, bearer("bob")).json().path("status").asString()).isEqualTo("RESERVED");
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenTheAdminToken_whenUsedAsABuyer_then401_andABuyersTokenIsNoAdmin() {
        String id = openSale(1, item("sku-a", 10));

        assertProblem(attempt(LEAN, id, ADMIN_TOKEN), 401, "TOKEN_INVALID");
        assertProblem(get("/api/v1/activities/" + id + "/stock", bearer("alice")), 401, "UNAUTHORIZED");
    }

    @Test
    void givenNoDemoMode_whenATokenIsAskedOfTheDemoIssuer_then404() {
        assertProblem(post("/demo/tokens", "{\"buyer\":\"alice\"}"), 404, "NOT_FOUND");
    }

    private Reply attempt(String contentType, String activityId, String token) {
        var request = request("/api/v1/activities/" + activityId + "/reservations")
                .header("Content-Type", contentType)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1))));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request);
    }

    private static String[] bearer(String buyer) {
        return new String[] {"Authorization", "Bearer " + ISSUER.forBuyer(buyer)};
    }
}
