package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.List;

/**
 * One attempt to reserve, as the stock store receives it: the id is made up front so the store
 * can write the reservation in the same atomic step that deducts the stock.
 */
public record ReservationRequest(ReservationId id, BuyerId buyerId, RequestId requestId,
                                 List<ReservationLine> lines, Instant at) {

    public ReservationRequest {
        Require.present(id, "reservationId");
        Require.present(buyerId, "buyerId");
        Require.present(requestId, "requestId");
        lines = Reservation.requireLines(lines);
        Require.present(at, "at");
    }

    public ActivityId activityId() {
        return id.activityId();
    }

    public Reservation toReservation() {
        return new Reservation(id, activityId(), buyerId, requestId, lines, ReservationStatus.RESERVED, at);
    }
}
