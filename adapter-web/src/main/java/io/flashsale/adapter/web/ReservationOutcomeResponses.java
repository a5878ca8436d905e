package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationOutcome;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** Every outcome of a reservation attempt as the HTTP answer the API documents. */
final class ReservationOutcomeResponses {

    private static final String RESERVATION_PATH = "/api/v1/reservations/";

    private ReservationOutcomeResponses() {
    }

    static ResponseEntity<?> of(ReservationOutcome outcome) {
        return switch (outcome) {
            case ReservationOutcome.Reserved reserved -> accepted(reserved.reservation());
            case ReservationOutcome.Replayed replayed -> accepted(replayed.reservation());
            // The application answers it with the order (ReservationService), so it never reaches an answer here.
            case ReservationOutcome.Settled settled -> throw new IllegalStateException(
                    "a settled replay of " + settled.reservationId() + " was not resolved to its order");
            case ReservationOutcome.SoldOut soldOut -> Problems.response(
                    withSku(Problems.of(ProblemCode.SOLD_OUT, "the SKU is sold out"), soldOut.skuId().value()));
            case ReservationOutcome.InsufficientStock insufficient -> {
                ProblemDetail problem = withSku(Problems.of(ProblemCode.INSUFFICIENT_STOCK,
                        "fewer units are left than requested"), insufficient.skuId().value());
                problem.setProperty("available", insufficient.available());
                yield Problems.response(problem);
            }
            case ReservationOutcome.LimitExceeded exceeded -> {
                ProblemDetail problem = withSku(Problems.of(ProblemCode.LIMIT_EXCEEDED,
                        "the request would take the buyer over the per-user limit"), exceeded.skuId().value());
                problem.setProperty("limit", exceeded.limit());
                problem.setProperty("held", exceeded.held());
                yield Problems.response(problem);
            }
            case ReservationOutcome.NotStarted notStarted -> {
                ProblemDetail problem = Problems.of(ProblemCode.NOT_STARTED, "the sale has not started yet");
                problem.setProperty("startsAt", notStarted.startsAt().toString());
                yield Problems.response(problem);
            }
            case ReservationOutcome.Ended ended -> {
                ProblemDetail problem = Problems.of(ProblemCode.ENDED, "the sale has ended");
                problem.setProperty("endsAt", ended.endsAt().toString());
                yield Problems.response(problem);
            }
            case ReservationOutcome.Paused paused -> Problems.response(Problems.of(ProblemCode.SALE_PAUSED,
                    "the sale is paused; try again when it is resumed"));
            case ReservationOutcome.TryAgain tryAgain -> tryAgain(tryAgain);
            case ReservationOutcome.NotReady notReady -> Problems.notReady("the sale is not open for reservations yet");
            case ReservationOutcome.UnknownSku unknown -> Problems.response(
                    withSku(Problems.of(ProblemCode.UNKNOWN_SKU, "the SKU is not part of this sale"),
                            unknown.skuId().value()));
            case ReservationOutcome.RateLimited limited -> RateLimitResponses.of(limited);
            case ReservationOutcome.Blocked blocked -> {
                ProblemDetail problem = Problems.of(ProblemCode.BLOCKED, "the attempt was refused by the risk control");
                problem.setProperty("blockedBy", blocked.refusal().label());
                yield Problems.response(problem);
            }
        };
    }

    /** A reservation id is URI-safe by construction (two ids of [A-Za-z0-9_-] and a dot): no template to expand. */
    private static ResponseEntity<ReservationAcceptedResponse> accepted(Reservation reservation) {
        return ResponseEntity
                .accepted()
                .header(HttpHeaders.LOCATION, RESERVATION_PATH + reservation.id().value())
                .body(ReservationAcceptedResponse.of(reservation));
    }

    /** Retry-After counts whole seconds (RFC 9110), so the wait is rounded up there and given exactly beside it. */
    private static ResponseEntity<ProblemDetail> tryAgain(ReservationOutcome.TryAgain tryAgain) {
        ProblemDetail problem = withSku(Problems.of(ProblemCode.TRY_AGAIN,
                "units of the SKU are on their way to this buyer's share of the sale; try again shortly"),
                tryAgain.skuId().value());
        long millis = tryAgain.retryAfter().toMillis();
        problem.setProperty("retryAfterMillis", millis);
        long seconds = Math.max(1, (millis + 999) / 1000);
        return Problems.status(problem.getStatus())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(seconds))
                .body(problem);
    }

    private static ProblemDetail withSku(ProblemDetail problem, String skuId) {
        problem.setProperty("skuId", skuId);
        return problem;
    }
}
