package io.flashsale.adapter.web;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReservationOutcomeResponsesTest {

    private static final SkuId SKU = new SkuId("sku-1");
    private static final Instant AT = Instant.parse("2030-01-01T00:00:00Z");
    private static final Reservation RESERVATION = new Reservation(
            ReservationId.of(new ActivityId("act-1"), "0190abcdef"), new ActivityId("act-1"), new BuyerId("alice"),
            new RequestId("r-1"), List.of(new ReservationLine(SKU, 2)), ReservationStatus.RESERVED, AT);

    @Test
    void givenAReservation_whenAnswered_then202WithItsLocationAndLines() {
        for (ReservationOutcome outcome : List.of(new ReservationOutcome.Reserved(RESERVATION),
                new ReservationOutcome.Replayed(RESERVATION))) {
            ResponseEntity<?> response = ReservationOutcomeResponses.of(outcome);

            assertThat(response.getStatusCode().value()).isEqualTo(202);
            assertThat(response.getHeaders().getLocation()).hasToString("/api/v1/reservations/act-1.0190abcdef");
            assertThat(response.getBody()).isEqualTo(new ReservationAcceptedResponse("act-1.0190abcdef", "act-1",
                    "RESERVED", List.of(new ReservationLineResponse("sku-1", 2))));
        }
    }

    @Test
    void givenEachRefusal_whenAnswered_thenItsStatusCodeAndDetails() {
        assertProblem(new ReservationOutcome.SoldOut(SKU), 409, "SOLD_OUT", Map.of("skuId", "sku-1"));
        assertProblem(new ReservationOutcome.InsufficientStock(SKU, 3), 409, "INSUFFICIENT_STOCK",
                Map.of("skuId", "sku-1", "available", 3L));
        assertProblem(new ReservationOutcome.LimitExceeded(SKU, 2, 1), 409, "LIMIT_EXCEEDED",
                Map.of("skuId", "sku-1", "limit", 2, "held", 1L));
        assertProblem(new ReservationOutcome.NotStarted(AT), 409, "NOT_STARTED", Map.of("startsAt", "2030-01-01T00:00:00Z"));
        assertProblem(new ReservationOutcome.Ended(AT), 409, "ENDED", Map.of("endsAt", "2030-01-01T00:00:00Z"));
        assertProblem(new ReservationOutcome.Paused(), 409, "SALE_PAUSED", Map.of());
        assertProblem(new ReservationOutcome.NotReady(), 503, "NOT_READY", Map.of());
        assertProblem(new ReservationOutcome.UnknownSku(SKU), 422, "UNKNOWN_SKU", Map.of("skuId", "sku-1"));
        assertProblem(new ReservationOutcome.Blocked(ReservationOutcome.Blocked.Refusal.SHARED_DEVICE), 403, "BLOCKED",
                Map.of("blockedBy", "shared-device"));
    }

    @Test
    void givenNotReady_whenAnswered_thenTheBuyerIsToldWhenToRetry() {
        ResponseEntity<?> response = ReservationOutcomeResponses.of(new ReservationOutcome.NotReady());

        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo(Problems.RETRY_AFTER_SECONDS);
    }

    @Test
    void givenTryAgain_whenAnswered_thenA503NamesTheSkuAndTheWaitRoundedUpToWholeSeconds() {
        ResponseEntity<?> response = ReservationOutcomeResponses.of(
                new ReservationOutcome.TryAgain(SKU, java.time.Duration.ofMillis(1_200)));

        assertThat(response.getStatusCode().value()).isEqualTo(503);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("2");
        assertThat(response.getHeaders().getContentType()).hasToString("application/problem+json");
        assertThat(response.getBody()).isInstanceOfSatisfying(ProblemDetail.class, problem ->
                assertThat(problem.getProperties()).containsEntry("code", "TRY_AGAIN")
                        .containsEntry("skuId", "sku-1").containsEntry("retryAfterMillis", 1_200L));
        assertThat(ReservationOutcomeResponses.of(new ReservationOutcome.TryAgain(SKU, java.time.Duration.ofMillis(100)))
                .getHeaders().getFirst("Retry-After")).isEqualTo("1");
    }

    private static void assertProblem(ReservationOutcome outcome, int status, String code, Map<String, Object> details) {
        ResponseEntity<?> response = ReservationOutcomeResponses.of(outcome);

        assertThat(response.getStatusCode().value()).as(code).isEqualTo(status);
        assertThat(response.getBody()).isInstanceOfSatisfying(ProblemDetail.class, problem -> {
            assertThat(problem.getStatus()).isEqualTo(status);
            assertThat(problem.getProperties()).containsEntry("code", code).containsAllEntriesOf(details);
        });
    }
}
