package io.flashsale.adapter.web;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.shared.Identifier;

/** Ids taken from the URL: one of the wrong shape names nothing, so it is a 404, and it is never echoed. */
final class PathIds {

    private PathIds() {
    }

    static ActivityId activity(String raw) {
        if (!Identifier.isValid(raw)) {
            throw new NotFoundException(ProblemCode.ACTIVITY_NOT_FOUND, "there is no such activity");
        }
        return new ActivityId(raw);
    }

    static ReservationId reservation(String raw) {
        if (!ReservationId.isValid(raw)) {
            throw reservationNotFound();
        }
        return new ReservationId(raw);
    }

    static NotFoundException reservationNotFound() {
        return new NotFoundException(ProblemCode.RESERVATION_NOT_FOUND, "there is no such reservation");
    }
}
