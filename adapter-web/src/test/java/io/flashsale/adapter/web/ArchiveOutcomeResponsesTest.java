package io.flashsale.adapter.web;

import io.flashsale.application.sale.model.ArchiveOutcome;
import io.flashsale.domain.activity.ActivityId;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ArchiveOutcomeResponsesTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final Instant AT = Instant.parse("2030-01-01T00:00:00Z");

    @Test
    void givenAnArchivedSale_whenAnsweredTheFirstTimeOrAgain_then200WithWhenItWasArchived() {
        for (ArchiveOutcome outcome : new ArchiveOutcome[] {new ArchiveOutcome.Archived(AT),
                new ArchiveOutcome.AlreadyArchived(AT)}) {
            ResponseEntity<?> response = ArchiveOutcomeResponses.of(SALE, outcome);

            assertThat(response.getStatusCode().value()).isEqualTo(200);
            assertThat(response.getBody()).isEqualTo(new ArchiveResponse("sale-1", AT));
        }
    }

    @Test
    void givenNoSuchSaleOrOneStillOpen_whenAnswered_then404Or409WithTheEnd() {
        assertProblem(new ArchiveOutcome.NotFound(), 404, "ACTIVITY_NOT_FOUND", Map.of());
        assertProblem(new ArchiveOutcome.NotEnded(AT), 409, "ACTIVITY_NOT_ENDED", Map.of("endsAt", "2030-01-01T00:00:00Z"));
        assertThat(ArchiveOutcomeResponses.of(SALE, new ArchiveOutcome.NotEnded(AT)).getHeaders().getFirst("Retry-After"))
                .isNull();
    }

    @Test
    void givenReservationsInFlight_whenAnswered_then409ReservationsPendingSayingWhichWithRetryAfter() {
        ProblemDetail reserved = assertProblem(new ArchiveOutcome.StillReserved(3), 409, "RESERVATIONS_PENDING",
                Map.of("pending", "STILL_RESERVED", "reservations", 3L));
        ProblemDetail cancelled = assertProblem(new ArchiveOutcome.CancellationsUnsettled(2), 409,
                "RESERVATIONS_PENDING", Map.of("pending", "CANCELLATIONS_UNSETTLED", "reservations", 2L));
        ProblemDetail outbox = assertProblem(new ArchiveOutcome.OutboxNotDrained(), 409, "RESERVATIONS_PENDING",
                Map.of("pending", "OUTBOX_NOT_DRAINED"));

        assertThat(reserved.getDetail()).contains("3 reservation(s)").contains("RESERVED");
        assertThat(cancelled.getDetail()).contains("2 reservation(s)").contains("cancelled");
        assertThat(outbox.getDetail()).contains("outbox");
        assertThat(outbox.getProperties()).doesNotContainKey("reservations");
        assertThat(ArchiveOutcomeResponses.of(SALE, new ArchiveOutcome.OutboxNotDrained()).getHeaders()
                .getFirst("Retry-After")).isEqualTo(ArchiveOutcomeResponses.RETRY_AFTER_SECONDS);
    }

    private static ProblemDetail assertProblem(ArchiveOutcome outcome, int status, String code,
                                               Map<String, Object> details) {
        ResponseEntity<?> response = ArchiveOutcomeResponses.of(SALE, outcome);

        assertThat(response.getStatusCode().value()).as(code).isEqualTo(status);
        assertThat(response.getBody()).isInstanceOf(ProblemDetail.class);
        ProblemDetail problem = (ProblemDetail) response.getBody();
        assertThat(problem.getStatus()).isEqualTo(status);
        assertThat(problem.getProperties()).containsEntry("code", code).containsAllEntriesOf(details);
        return problem;
    }
}
