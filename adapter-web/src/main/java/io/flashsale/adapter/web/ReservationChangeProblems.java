package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.ReservationStatus;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/**
 * The 409 answers of a payment or cancellation that the reservation's status does not allow. The status is in
 * {@value #RESERVATION_STATUS}: a problem's own {@code status} member is the HTTP status (RFC 9457).
 */
final class ReservationChangeProblems {

    static final String RESERVATION_STATUS = "reservationStatus";

    private ReservationChangeProblems() {
    }

    /** RESERVED is not an order yet and becomes one within moments: that one answer carries Retry-After. */
    static ResponseEntity<ProblemDetail> notPayable(ReservationStatus status) {
        if (status == ReservationStatus.RESERVED) {
            return Problems.status(ProblemCode.NOT_PAYABLE.status())
                    .header(HttpHeaders.RETRY_AFTER, Problems.RETRY_AFTER_SECONDS)
                    .body(withStatus(Problems.of(ProblemCode.NOT_PAYABLE,
                            "the reservation is not an order yet; try again shortly"), status));
        }
        return Problems.response(withStatus(Problems.of(ProblemCode.NOT_PAYABLE,
                "a reservation that is " + name(status) + " cannot be paid"), status));
    }

    static ResponseEntity<ProblemDetail> notCancellable(ReservationStatus status) {
        return Problems.response(withStatus(Problems.of(ProblemCode.NOT_CANCELLABLE,
                "a reservation that is " + name(status) + " cannot be cancelled"), status));
    }

    private static ProblemDetail withStatus(ProblemDetail problem, ReservationStatus status) {
        problem.setProperty(RESERVATION_STATUS, name(status));
        return problem;
    }

    private static String name(ReservationStatus status) {
        return status == null ? "in another state" : status.name();
    }
}
