package io.flashsale.adapter.web;

import io.flashsale.application.sale.model.ArchiveOutcome;
import io.flashsale.domain.activity.ActivityId;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** Every outcome of an archive attempt as the HTTP answer the API documents. */
final class ArchiveOutcomeResponses {

    /** Seconds to wait before trying again while reservations are on their way to the database of record. */
    static final String RETRY_AFTER_SECONDS = "5";
    static final String PENDING = "pending";
    static final String RESERVATIONS = "reservations";

    private ArchiveOutcomeResponses() {
    }

    static ResponseEntity<?> of(ActivityId activityId, ArchiveOutcome outcome) {
        return switch (outcome) {
            case ArchiveOutcome.Archived archived ->
                    ResponseEntity.ok(new ArchiveResponse(activityId.value(), archived.archivedAt()));
            case ArchiveOutcome.AlreadyArchived archived ->
                    ResponseEntity.ok(new ArchiveResponse(activityId.value(), archived.archivedAt()));
            case ArchiveOutcome.NotFound notFound ->
                    Problems.response(Problems.of(ProblemCode.ACTIVITY_NOT_FOUND, "there is no such activity"));
            case ArchiveOutcome.NotEnded notEnded -> {
                ProblemDetail problem = Problems.of(ProblemCode.ACTIVITY_NOT_ENDED,
                        "only a sale that has ended can be archived");
                problem.setProperty("endsAt", notEnded.endsAt().toString());
                yield Problems.response(problem);
            }
            case ArchiveOutcome.StillReserved reserved -> pending("STILL_RESERVED", reserved.reservations(),
                    reserved.reservations() + " reservation(s) of the sale are still RESERVED, not orders yet");
            case ArchiveOutcome.CancellationsUnsettled unsettled -> pending("CANCELLATIONS_UNSETTLED",
                    unsettled.reservations(), unsettled.reservations() + " reservation(s) cancelled while RESERVED "
                            + "are not recorded by the order pipeline yet");
            case ArchiveOutcome.OutboxNotDrained notDrained -> pending("OUTBOX_NOT_DRAINED", null,
                    "accepted reservations are still in the outbox, not handed to the order pipeline yet");
        };
    }

    private static ResponseEntity<ProblemDetail> pending(String pending, Long reservations, String detail) {
        ProblemDetail problem = Problems.of(ProblemCode.RESERVATIONS_PENDING, detail + "; try again later");
        problem.setProperty(PENDING, pending);
        if (reservations != null) {
            problem.setProperty(RESERVATIONS, reservations);
        }
        return Problems.status(problem.getStatus())
                .header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(problem);
    }
}
