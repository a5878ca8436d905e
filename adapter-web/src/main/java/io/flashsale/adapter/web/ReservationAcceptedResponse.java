package io.flashsale.adapter.web;

import io.flashsale.domain.reservation.Reservation;

import java.util.List;

/** The 202 answer to an accepted (or replayed) reservation attempt. */
public record ReservationAcceptedResponse(String reservationId, String activityId, String status,
                                          List<ReservationLineResponse> items) {

    static ReservationAcceptedResponse of(Reservation reservation) {
        return new ReservationAcceptedResponse(reservation.id().value(), reservation.activityId().value(),
                reservation.status().name(), ReservationLineResponse.of(reservation));
    }
}
