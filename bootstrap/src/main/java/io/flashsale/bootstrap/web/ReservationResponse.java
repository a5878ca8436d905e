package io.flashsale.bootstrap.web;

import io.flashsale.domain.reservation.Reservation;

import java.time.Instant;
import java.util.List;

public record ReservationResponse(String reservationId, String activityId, String status,
                                  List<ReservationLineResponse> items, Instant reservedAt) {

    static ReservationResponse of(Reservation reservation) {
        return new ReservationResponse(reservation.id().value(), reservation.activityId().value(),
                reservation.status().name(), ReservationLineResponse.of(reservation), reservation.reservedAt());
    }
}
