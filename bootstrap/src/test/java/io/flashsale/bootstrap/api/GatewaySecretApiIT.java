package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code trusted-header} with a gateway secret: X-User-Id is taken only from a call that carries the secret. */
@Timeout(120)
class GatewaySecretApiIT extends ApiTestBase {

    private static final String SECRET = "bootstrap-it-gateway-secret";

    @DynamicPropertySource
    static void gatewaySecret(DynamicPropertyRegistry registry) {
        registry.add("flashsale.security.buyer-auth", () -> "trusted-header");
        registry.add("flashsale.security.gateway-secret", () -> SECRET);
    }

    @Override
    String buyerHeader() {
        return "X-User-Id";
    }

    @Override
    String signedIn(String buyer) {
        return buyer;
    }

    @Test
    void givenTheSecret_whenReservingOnTheLeanAndTheControllerPaths_then202() {
        String id = openSale(1, item("sku-a", 10));

        Reply lean = reserve(id, "alice", lines(null, line("sku-a", 1)), "X-Gateway-Secret", SECRET);
        Reply mvc = send(request("/api/v1/activities/" + id + "/reservations", "X-User-Id", "bob",
                "X-Gateway-Secret", SECRET, "Content-Type", "application/json;charset=UTF-8")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1)))));

        assertThat(lean.status()).as(lean.body()).isEqualTo(202);
        assertThat(mvc.status()).as(mvc.body()).isEqualTo(202);
    }

    @Test
    void givenAMissingOrWrongSecret_whenReservingOrReading_then401GatewaySecretInvalid() {
        String id = openSale(1, item("sku-a", 10));

        assertProblem(reserve(id, "alice", lines(null, line("sku-a", 1))), 401, "GATEWAY_SECRET_INVALID");
        assertProblem(reserve(id, "alice", lines(null, line("sku-a", 1)), "X-Gateway-Secret", SECRET + "x"), 401,
                "GATEWAY_SECRET_INVALID");
        assertProblem(get("/api/v1/reservations/" + id + ".0123abcd", "X-User-Id", "alice"), 401,
                "GATEWAY_SECRET_INVALID");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }
}
