package io.flashsale.application.reservation.model;

import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.reservation.StatusTimes;

/**
 * A reservation as its buyer sees it: its status from whichever store decides it now, and the moments it changed.
 *
 * @param failureReason why the database of record refused it; only when FAILED and known
 */
public record ReservationView(Reservation reservation, StatusTimes times, OrderRefusal failureReason) {

    public ReservationView {
        if (reservation == null || times == null) {
            throw new IllegalArgumentException("a view needs the reservation and its times");
        }
    }

    /** Whether it became an order (its order id is the reservation id). */
    public boolean ordered() {
        ReservationStatus status = reservation.status();
        return times.orderedAt() != null || status == ReservationStatus.ORDERED || status == ReservationStatus.PAID
                || status == ReservationStatus.EXPIRED;
    }
}
