package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service as it starts by default: buyers cannot confirm their own payments, and with no notification secret
 * configured the provider's notifications are refused rather than taken unsigned.
 */
class BuyerPaymentSwitchIT extends ApiTestBase {

    @Test
    void givenTheDefaults_whenTheBuyerConfirmsItsPayment_then403BuyerPaymentDisabledAndNothingMoves() {
        String id = openSale(1, item("sku-a", 10));
        Reply reserved = reserve(id, "alice", lines(null, line("sku-a", 1)));
        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        String reservationId = reserved.json().path("reservationId").asString();

        Reply refused = post("/api/v1/reservations/" + reservationId + "/payment", "", buyerHeader(),
                signedIn("alice"));

        assertProblem(refused, 403, "BUYER_PAYMENT_DISABLED");
        assertThat(get("/api/v1/reservations/" + reservationId, buyerHeader(),
                signedIn("alice")).json().path("status").asString())
                .isEqualTo("RESERVED");
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenNoNotificationSecret_whenTheProviderNotifies_then503AndNothingIsTaken() {
        String body = "{\"reservationId\":\"sale-1.0abc\",\"paymentReference\":\"pay-1\",\"paidAt\":\""
                + Instant.now() + "\"}";

        Reply unsigned = post("/api/v1/payments/notifications", body);
        Reply signed = post("/api/v1/payments/notifications", body, "Flashsale-Signature",
                "t=" + Instant.now().getEpochSecond() + ",v1=" + "0".repeat(64));

        assertProblem(unsigned, 503, "PAYMENT_NOTIFICATIONS_DISABLED");
        assertProblem(signed, 503, "PAYMENT_NOTIFICATIONS_DISABLED");
    }
}
