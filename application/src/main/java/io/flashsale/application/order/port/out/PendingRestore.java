package io.flashsale.application.order.port.out;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.util.List;

/**
 * An order the database closed and restored whose units the hot store still has to give back. It carries the order's
 * buyer, request and lines because the hot store keeps no record of an ordered reservation (ADR 71): the restore gives
 * back these lines, and the request entry naming the id tells it from one the hot store never held.
 */
public record PendingRestore(ReservationId reservationId, BuyerId buyerId, RequestId requestId,
                             List<ReservationLine> lines, ReservationStatus finalStatus) {

    public PendingRestore {
        if (reservationId == null || buyerId == null || requestId == null || lines == null || lines.isEmpty()
                || finalStatus == null || !finalStatus.restoresOrderedUnits()) {
            throw new IllegalArgumentException("a pending restore needs an id, a buyer, a request, lines and "
                    + "CANCELLED or EXPIRED, not " + reservationId + " " + finalStatus);
        }
        lines = List.copyOf(lines);
    }

    /** The restore of {@code order} closed as {@code finalStatus}. */
    public static PendingRestore of(Order order, ReservationStatus finalStatus) {
        return new PendingRestore(order.id(), order.buyerId(), order.requestId(), order.lines(), finalStatus);
    }

    /** The restore of an ordered reservation (as the database of record holds it) closed as {@code finalStatus}. */
    public static PendingRestore of(Reservation order, ReservationStatus finalStatus) {
        return new PendingRestore(order.id(), order.buyerId(), order.requestId(), order.lines(), finalStatus);
    }

    /** The restore of an order closed already: its own status is the final one. */
    public static PendingRestore of(Order closed) {
        return of(closed, closed.status());
    }
}
