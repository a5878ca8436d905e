package io.flashsale.bootstrap.api;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Payment and cancellation of reservations that are not orders yet: the outbox relay is off in this context, so every
 * reservation stays RESERVED and Redis alone decides. The buyer confirms its own payments here (off by default: see
 * BuyerPaymentSwitchIT).
 */
@TestPropertySource(properties = "flashsale.payment.buyer-confirms=true")
class ReservationLifecycleApiIT extends ApiTestBase {

    @Test
    void givenAReservationNotYetAnOrder_whenPaid_then409NotPayableWithRetryAfterAndNothingMoves() {
        String id = openSale(1, item("sku-a", 10));
        String reservationId = reserveOne(id, "alice");

        Reply refused = pay(reservationId, "alice");

        assertProblem(refused, 409, "NOT_PAYABLE");
        assertThat(refused.json().path("reservationStatus").asString()).isEqualTo("RESERVED");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(read(reservationId, "alice").path("status").asString()).isEqualTo("RESERVED");
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenAReservedReservation_whenItsBuyerCancels_then200CancelledWithItsTimeAndTheUnitsAreBack() {
        String id = openSale(1, item("sku-a", 1));
        String reservationId = reserveOne(id, "alice");
        Instant before = Instant.now().minusSeconds(1);

        Reply cancelled = cancel(reservationId, "alice");

        assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
        JsonNode body = cancelled.json();
        assertThat(body.path("reservationId").asString()).isEqualTo(reservationId);
        assertThat(body.path("status").asString()).isEqualTo("CANCELLED");
        assertThat(body.has("orderId")).as("it never became an order: " + body).isFalse();
        assertThat(body.path("items").get(0).path("quantity").asInt()).isEqualTo(1);
        JsonNode times = body.path("statusTimes");
        assertThat(times.path("reservedAt").asString()).isEqualTo(body.path("reservedAt").asString());
        assertThat(Instant.parse(times.path("cancelledAt").asString())).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(times.has("orderedAt")).isFalse();
        assertThat(ledger(id, "sku-a")).containsExactly(1, 0, 0);
        assertThat(read(reservationId, "alice").path("statusTimes").path("cancelledAt").asString())
                .isEqualTo(times.path("cancelledAt").asString());
    }

    @Test
    void givenACancelledReservation_whenCancelledAgainOrPaid_thenTheSameAnswerOr409AndTheUnitsAreNotTouched() {
        String id = openSale(1, item("sku-a", 1));
        String reservationId = reserveOne(id, "alice");
        String cancelledAt = cancel(reservationId, "alice").json().path("statusTimes").path("cancelledAt").asString();
        String bob = reserveOne(id, "bob");

        Reply again = cancel(reservationId, "alice");
        Reply paid = pay(reservationId, "alice");

        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("status").asString()).isEqualTo("CANCELLED");
        assertThat(again.json().path("statusTimes").path("cancelledAt").asString()).isEqualTo(cancelledAt);
        assertProblem(paid, 409, "NOT_PAYABLE");
        assertThat(paid.json().path("reservationStatus").asString()).isEqualTo("CANCELLED");
        assertThat(paid.header("Retry-After")).isNull();
        assertThat(ledger(id, "sku-a")).as("the unit is bob's now").containsExactly(0, 1, 0);
        assertThat(read(bob, "bob").path("status").asString()).isEqualTo("RESERVED");
    }

    @Test
    void givenACancellation_whenTheBuyerReservesAgain_thenTheLimitCountsTheReturnedUnitAsFree() {
        String id = openSale(1, item("sku-a", 5));
        String first = reserveOne(id, "alice");
        assertProblem(reserve(id, "alice", lines(null, line("sku-a", 1))), 409, "LIMIT_EXCEEDED");

        assertThat(cancel(first, "alice").status()).isEqualTo(200);

        assertThat(reserve(id, "alice", lines(null, line("sku-a", 1))).status()).isEqualTo(202);
        assertThat(ledger(id, "sku-a")).containsExactly(4, 1, 0);
    }

    @Test
    void givenAnotherBuyersOrNoReservation_whenPaidOrCancelled_then404AndNothingMoves() {
        String id = openSale(1, item("sku-a", 10));
        String reservationId = reserveOne(id, "alice");

        for (String path : new String[] {"/payment", "/cancellation"}) {
            String base = "/api/v1/reservations/";
            assertProblem(post(base + reservationId + path, "", buyerHeader(), signedIn("mallory")), 404,
                    "RESERVATION_NOT_FOUND");
            assertProblem(post(base + id + ".0123abcd" + path, "", buyerHeader(), signedIn("alice")), 404,
                    "RESERVATION_NOT_FOUND");
            assertProblem(post(base + "not-a-reservation-id" + path, "", buyerHeader(), signedIn("alice")), 404,
                    "RESERVATION_NOT_FOUND");
            assertProblem(post(base + reservationId + path, ""), 401, "TOKEN_MISSING");
        }
        assertThat(read(reservationId, "alice").path("status").asString()).isEqualTo("RESERVED");
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenAPaymentOrCancellation_whenReadWithGet_thenMethodNotAllowed() {
        String id = openSale(1, item("sku-a", 10));
        String reservationId = reserveOne(id, "alice");

        assertProblem(get("/api/v1/reservations/" + reservationId + "/payment", buyerHeader(), signedIn("alice")), 405,
                "METHOD_NOT_ALLOWED");
        assertProblem(get("/api/v1/reservations/" + reservationId + "/cancellation", buyerHeader(),
                signedIn("alice")), 405,
                "METHOD_NOT_ALLOWED");
    }

    private String reserveOne(String activityId, String buyer) {
        Reply reserved = reserve(activityId, buyer, lines(null, line("sku-a", 1)));
        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        return reserved.json().path("reservationId").asString();
    }

    private Reply pay(String reservationId, String buyer) {
        return post("/api/v1/reservations/" + reservationId + "/payment", "", buyerHeader(), signedIn(buyer));
    }

    private Reply cancel(String reservationId, String buyer) {
        return post("/api/v1/reservations/" + reservationId + "/cancellation", "", buyerHeader(), signedIn(buyer));
    }

    private JsonNode read(String reservationId, String buyer) {
        Reply read = get("/api/v1/reservations/" + reservationId, buyerHeader(), signedIn(buyer));
        assertThat(read.status()).as(read.body()).isEqualTo(200);
        return read.json();
    }
}
