package io.flashsale.bootstrap.api;

import io.flashsale.testsupport.TestBuyerTokens;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class ReservationApiIT extends ApiTestBase {

    private static final HttpClient RACE = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void givenAnOpenSale_whenABuyerReserves_then202WithTheReservationAndTheStockMoves() {
        String id = openSale(2, item("sku-a", 10), item("sku-b", 5));

        Reply reserved = reserve(id, "alice", lines(null, line("sku-a", 2), line("sku-b", 1)));

        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
        JsonNode body = reserved.json();
        String reservationId = body.path("reservationId").asString();
        assertThat(reservationId).startsWith(id + ".");
        assertThat(reserved.header("Location")).isEqualTo("/api/v1/reservations/" + reservationId);
        assertThat(body.path("activityId").asString()).isEqualTo(id);
        assertThat(body.path("status").asString()).isEqualTo("RESERVED");
        assertThat(body.path("items").get(0).path("skuId").asString()).isEqualTo("sku-a");
        assertThat(body.path("items").get(0).path("quantity").asInt()).isEqualTo(2);
        assertThat(body.path("items").get(1).path("skuId").asString()).isEqualTo("sku-b");
        assertThat(ledger(id, "sku-a")).containsExactly(8, 2, 0);
        assertThat(ledger(id, "sku-b")).containsExactly(4, 1, 0);
        assertThat(get("/api/v1/activities/" + id).json().path("items").get(0).path("available").asLong()).isEqualTo(8);
    }

    @Test
    void givenAReservation_whenItsBuyerReadsIt_thenItsStatusLinesAndTime() {
        String id = openSale(1, item("sku-a", 10));
        Instant before = Instant.now().minusSeconds(1);
        String reservationId = reserve(id, "alice", lines(null, line("sku-a", 1))).json().path("reservationId").asString();

        Reply read = get("/api/v1/reservations/" + reservationId, buyerHeader(), signedIn("alice"));

        assertThat(read.status()).as(read.body()).isEqualTo(200);
        JsonNode body = read.json();
        assertThat(body.path("reservationId").asString()).isEqualTo(reservationId);
        assertThat(body.path("activityId").asString()).isEqualTo(id);
        assertThat(body.path("status").asString()).isEqualTo("RESERVED");
        assertThat(body.path("items").get(0).path("skuId").asString()).isEqualTo("sku-a");
        assertThat(body.path("items").get(0).path("quantity").asInt()).isEqualTo(1);
        assertThat(Instant.parse(body.path("reservedAt").asString())).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(body.has("orderId")).as("no order yet: " + body).isFalse();
        assertThat(body.has("failureReason")).as(body.toString()).isFalse();
    }

    @Test
    void givenAnotherBuyersReservation_whenRead_then404AsIfItDidNotExist() {
        String id = openSale(1, item("sku-a", 10));
        String reservationId = reserve(id, "alice", lines(null, line("sku-a", 1))).json().path("reservationId").asString();

        assertProblem(get("/api/v1/reservations/" + reservationId, buyerHeader(), signedIn("mallory")), 404,
                "RESERVATION_NOT_FOUND");
        assertProblem(get("/api/v1/reservations/" + id + ".0123abcd", buyerHeader(), signedIn("alice")), 404,
                "RESERVATION_NOT_FOUND");
        assertProblem(get("/api/v1/reservations/" + newId() + ".0123abcd", buyerHeader(), signedIn("alice")), 404,
                "RESERVATION_NOT_FOUND");
        assertProblem(get("/api/v1/reservations/not-a-reservation-id", buyerHeader(), signedIn("alice")), 404,
                "RESERVATION_NOT_FOUND");
        assertProblem(get("/api/v1/reservations/" + id + ".x'%20OR%20'1'='1", buyerHeader(), signedIn("alice")), 404,
                "RESERVATION_NOT_FOUND");
        assertProblem(get("/api/v1/reservations/" + id + ".%E2%9C%93", buyerHeader(), signedIn("alice")), 404,
                "RESERVATION_NOT_FOUND");
    }

    @Test
    void givenTheSameRequestIdTwice_whenReserved_thenTheSameReservationAndOneDeduction() {
        String id = openSale(2, item("sku-a", 10));

        Reply first = reserve(id, "alice", lines("req-1", line("sku-a", 1)));
        Reply again = reserve(id, "alice", lines("req-1", line("sku-a", 1)));

        assertThat(first.status()).isEqualTo(202);
        assertThat(again.status()).as(again.body()).isEqualTo(202);
        assertThat(again.json().path("reservationId").asString()).isEqualTo(first.json().path("reservationId").asString());
        assertThat(again.header("Location")).isEqualTo(first.header("Location"));
        assertThat(again.json().path("status").asString()).isEqualTo("RESERVED");
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenTheSameIdempotencyKeyTwice_whenReserved_thenTheSameReservationAndOneDeduction() {
        String id = openSale(2, item("sku-a", 10));

        Reply first = reserve(id, "alice", lines(null, line("sku-a", 1)), "Idempotency-Key", "key-1");
        Reply again = reserve(id, "alice", lines(null, line("sku-a", 1)), "Idempotency-Key", "key-1");
        Reply sameInBody = reserve(id, "alice", lines("key-1", line("sku-a", 1)));

        assertThat(first.status()).isEqualTo(202);
        assertThat(again.status()).isEqualTo(202);
        assertThat(again.json().path("reservationId").asString()).isEqualTo(first.json().path("reservationId").asString());
        assertThat(sameInBody.json().path("reservationId").asString()).isEqualTo(first.json().path("reservationId").asString());
        assertThat(ledger(id, "sku-a")).containsExactly(9, 1, 0);
    }

    @Test
    void givenAnIdempotencyKeyAndTheSameRequestId_whenReserved_thenAccepted() {
        String id = openSale(2, item("sku-a", 10));

        Reply reserved = reserve(id, "alice", lines("key-1", line("sku-a", 1)), "Idempotency-Key", "key-1");

        assertThat(reserved.status()).as(reserved.body()).isEqualTo(202);
    }

    @Test
    void givenAnIdempotencyKeyThatDiffersFromTheRequestId_whenReserved_then400AndNothingDeducted() {
        String id = openSale(2, item("sku-a", 10));

        Reply refused = reserve(id, "alice", lines("req-1", line("sku-a", 1)), "Idempotency-Key", "key-1");

        assertProblem(refused, 400, "VALIDATION");
        assertThat(refused.json().path("errors").get(0).path("field").asString()).isEqualTo("requestId");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenTwoBuyersWithTheSameRequestId_whenReserved_thenEachGetsTheirOwnReservation() {
        String id = openSale(1, item("sku-a", 10));

        Reply alice = reserve(id, "alice", lines("req-1", line("sku-a", 1)));
        Reply bob = reserve(id, "bob", lines("req-1", line("sku-a", 1)));

        assertThat(bob.status()).isEqualTo(202);
        assertThat(bob.json().path("reservationId").asString()).isNotEqualTo(alice.json().path("reservationId").asString());
        assertThat(ledger(id, "sku-a")).containsExactly(8, 2, 0);
    }

    @Test
    void givenNoStockLeft_whenReserved_then409SoldOutNamingTheSku() {
        String id = openSale(1, item("sku-a", 1));
        reserve(id, "alice", lines(null, line("sku-a", 1)));

        Reply refused = reserve(id, "bob", lines(null, line("sku-a", 1)));

        assertProblem(refused, 409, "SOLD_OUT");
        assertThat(refused.json().path("skuId").asString()).isEqualTo("sku-a");
        assertThat(ledger(id, "sku-a")).containsExactly(0, 1, 0);
    }

    @Test
    void givenFewerUnitsThanAsked_whenReserved_then409InsufficientStockWithWhatIsLeft() {
        String id = openSale(5, item("sku-a", 2));

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 3)));

        assertProblem(refused, 409, "INSUFFICIENT_STOCK");
        assertThat(refused.json().path("skuId").asString()).isEqualTo("sku-a");
        assertThat(refused.json().path("available").asLong()).isEqualTo(2);
        assertThat(ledger(id, "sku-a")).containsExactly(2, 0, 0);
    }

    @Test
    void givenABuyerAtTheLimit_whenReservingMore_then409LimitExceededWithLimitAndHeld() {
        String id = openSale(2, item("sku-a", 10));
        reserve(id, "alice", lines(null, line("sku-a", 2)));

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 1)));

        assertProblem(refused, 409, "LIMIT_EXCEEDED");
        assertThat(refused.json().path("skuId").asString()).isEqualTo("sku-a");
        assertThat(refused.json().path("limit").asInt()).isEqualTo(2);
        assertThat(refused.json().path("held").asLong()).isEqualTo(2);
        assertThat(ledger(id, "sku-a")).containsExactly(8, 2, 0);
    }

    @Test
    void givenASaleThatHasNotStarted_whenReserved_then409NotStartedWithTheStart() {
        String id = newId();
        Instant startsAt = now().plusSeconds(3600);
        createActivity(activityJson(id, startsAt, startsAt.plusSeconds(3600), 1, item("sku-a", 10)));
        asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 1)));

        assertProblem(refused, 409, "NOT_STARTED");
        assertThat(Instant.parse(refused.json().path("startsAt").asString())).isEqualTo(startsAt);
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenASaleThatHasEnded_whenReserved_then409EndedWithTheEnd() {
        String id = newId();
        Instant endsAt = now().minusSeconds(60);
        createActivity(activityJson(id, endsAt.minusSeconds(3600), endsAt, 1, item("sku-a", 10)));
        asAdmin("POST", "/api/v1/activities/" + id + "/warm-up", null);

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 1)));

        assertProblem(refused, 409, "ENDED");
        assertThat(Instant.parse(refused.json().path("endsAt").asString())).isEqualTo(endsAt);
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenASaleThatIsNotWarmedUp_whenReserved_then503NotReadyWithRetryAfter() {
        String id = createOpenActivity(1, item("sku-a", 10));

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 1)));

        assertProblem(refused, 503, "NOT_READY");
        assertThat(refused.header("Retry-After")).isEqualTo("1");
    }

    @Test
    void givenNoSuchSale_whenReserved_then404ActivityNotFound() {
        assertProblem(reserve(newId(), "alice", lines(null, line("sku-a", 1))), 404, "ACTIVITY_NOT_FOUND");
        assertProblem(reserve("bad%E2%9C%93id", "alice", lines(null, line("sku-a", 1))), 404, "ACTIVITY_NOT_FOUND");
    }

    @Test
    void givenASkuThatIsNotOnSale_whenReserved_then422UnknownSkuAndNothingDeducted() {
        String id = openSale(1, item("sku-a", 10));

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 1), line("sku-x", 1)));

        assertProblem(refused, 422, "UNKNOWN_SKU");
        assertThat(refused.json().path("skuId").asString()).isEqualTo("sku-x");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }

    @Test
    void givenOneLineThatCannotBeServed_whenSeveralSkusAreReserved_thenNoLineIsDeducted() {
        String id = openSale(5, item("sku-a", 10), item("sku-b", 1));

        Reply refused = reserve(id, "alice", lines(null, line("sku-a", 2), line("sku-b", 2)));

        assertProblem(refused, 409, "INSUFFICIENT_STOCK");
        assertThat(refused.json().path("skuId").asString()).isEqualTo("sku-b");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
        assertThat(ledger(id, "sku-b")).containsExactly(1, 0, 0);
    }

    @Test
    void givenTenUnits_whenTwoHundredBuyersRace_thenExactlyTenAreAccepted() {
        String id = openSale(1, item("sku-a", 10));
        List<CompletableFuture<HttpResponse<String>>> attempts = new ArrayList<>();
        for (int buyer = 0; buyer < 200; buyer++) {
            HttpRequest request = request("/api/v1/activities/" + id + "/reservations", buyerHeader(),
                    signedIn("buyer-" + buyer))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(lines(null, line("sku-a", 1))))
                    .build();
            attempts.add(RACE.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }

        Map<Integer, Long> statuses = attempts.stream().map(CompletableFuture::join)
                .collect(Collectors.groupingBy(HttpResponse::statusCode, Collectors.counting()));

        assertThat(statuses).containsExactlyInAnyOrderEntriesOf(Map.of(202, 10L, 409, 190L));
        assertThat(ledger(id, "sku-a")).containsExactly(0, 10, 0);
    }

    @Test
    void givenNoTokenOrATokenOfAMalformedBuyer_whenReservingOrReading_then401AndNothingDeducted() {
        String id = openSale(1, item("sku-a", 10));
        String body = lines(null, line("sku-a", 1));
        String path = "/api/v1/activities/" + id + "/reservations";

        assertProblem(post(path, body), 401, "TOKEN_MISSING");
        for (String buyer : new String[] {"", "b".repeat(65), "bob smith", "bob\u00e9", "x'OR'1'='1", "a.b", "a/b"}) {
            assertProblem(post(path, body, "Authorization", TestBuyerTokens.rsa().bearer(buyer)), 401, "TOKEN_INVALID");
        }
        assertProblem(post(path, "{not json", "Authorization", "Bearer not-a-token"), 401, "TOKEN_INVALID");
        assertProblem(get("/api/v1/reservations/" + id + ".0123abcd"), 401, "TOKEN_MISSING");
        assertThat(ledger(id, "sku-a")).containsExactly(10, 0, 0);
    }
}
