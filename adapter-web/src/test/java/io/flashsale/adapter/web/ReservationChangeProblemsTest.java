package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

class ReservationChangeProblemsTest {

    @Test
    void givenAReservationNotYetAnOrder_whenPaid_then409NotPayableWithRetryAfter() {
        ResponseEntity<ProblemDetail> response = ReservationChangeProblems.notPayable(ReservationStatus.RESERVED);

        assertThat(response.getStatusCode().value()).isEqualTo(409);
        assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo(Problems.RETRY_AFTER_SECONDS);
        assertThat(response.getBody().getStatus()).isEqualTo(409);
        assertThat(response.getBody().getProperties()).containsEntry("code", "NOT_PAYABLE")
                .containsEntry("reservationStatus", "RESERVED");
    }

    @Test
    void givenAReservationClosedForGood_whenPaid_then409NotPayableWithoutRetryAfter() {
        for (ReservationStatus status : new ReservationStatus[] {ReservationStatus.CANCELLED, ReservationStatus.EXPIRED,
                ReservationStatus.FAILED}) {
            ResponseEntity<ProblemDetail> response = ReservationChangeProblems.notPayable(status);

            assertThat(response.getStatusCode().value()).isEqualTo(409);
            assertThat(response.getHeaders().getFirst("Retry-After")).as(status.name()).isNull();
            assertThat(response.getBody().getProperties()).containsEntry("code", "NOT_PAYABLE")
                    .containsEntry("reservationStatus", status.name());
            assertThat(response.getBody().getDetail()).contains(status.name());
        }
    }

    @Test
    void givenAPaidOrExpiredReservation_whenCancelled_then409NotCancellableWithItsStatus() {
        for (ReservationStatus status : new ReservationStatus[] {ReservationStatus.PAID, ReservationStatus.EXPIRED,
                ReservationStatus.FAILED}) {
            ResponseEntity<ProblemDetail> response = ReservationChangeProblems.notCancellable(status);

            assertThat(response.getStatusCode().value()).isEqualTo(409);
            assertThat(response.getBody().getProperties()).containsEntry("code", "NOT_CANCELLABLE")
                    .containsEntry("reservationStatus", status.name());
        }
    }
}
