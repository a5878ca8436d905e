package io.flashsale.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
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
 * @param sameRequestAs the id asked for, when it is not this reservation's: a second reservation of the same request,
 *                      refused as its duplicate, whose calls answer and act on the request's order, this one (ADR 61);
 *                      absent otherwise. The client goes on with {@code reservationId}.
 */
public record ReservationResponse(String reservationId, String activityId, String status,
                                  List<ReservationLineResponse> items, Instant reservedAt,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) String orderId,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) String failureReason,
                                  StatusTimesResponse statusTimes,
                                  @JsonInclude(JsonInclude.Include.NON_NULL) String sameRequestAs) {

    static ReservationResponse of(ReservationView view) {
        return of(view, view.reservation().id());
    }

    /** The view of the reservation {@code asked} leads to: its own, or that of its request's order. */
    static ReservationResponse of(ReservationView view, ReservationId asked) {
        Reservation reservation = view.reservation();
        boolean failed = reservation.status() == ReservationStatus.FAILED;
        return new ReservationResponse(reservation.id().value(), reservation.activityId().value(),
                reservation.status().name(), ReservationLineResponse.of(reservation), reservation.reservedAt(),
                view.ordered() ? reservation.id().value() : null,
                failed && view.failureReason() != null ? view.failureReason().name() : null,
                StatusTimesResponse.of(view.times()),
                asked.equals(reservation.id()) ? null : asked.value());
    }
}
