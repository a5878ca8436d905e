package io.flashsale.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.flashsale.application.port.in.ReservationView;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.List;

/**
 * A reservation as its buyer sees it, from {@code GET /api/v1/reservations/{id}} and the payment and cancellation
 * calls.
 *
 * @param status        RESERVED, ORDERED, PAID, CANCELLED, EXPIRED or FAILED
 * @param orderId       the order's id (the reservation's own) once the reservation became an order; absent before,
 *                      and absent for one cancelled or refused before it became one
 * @param failureReason why the database of record refused it; only when FAILED
 * @param statusTimes   when it reached each status it went through
 */
public record ReservationResponse(String reservationId, String activityId, String status,
                                  List<ReservationLineResponse> items, Instant reservedAt,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) String orderId,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) String failureReason,
                                  StatusTimesResponse statusTimes) {

    static ReservationResponse of(ReservationView view) {
        Reservation reservation = view.reservation();
        boolean failed = reservation.status() == ReservationStatus.FAILED;
        return new ReservationResponse(reservation.id().value(), reservation.activityId().value(),
                reservation.status().name(), ReservationLineResponse.of(reservation), reservation.reservedAt(),
                view.ordered() ? reservation.id().value() : null,
                failed && view.failureReason() != null ? view.failureReason().name() : null,
                StatusTimesResponse.of(view.times()));
    }
}
