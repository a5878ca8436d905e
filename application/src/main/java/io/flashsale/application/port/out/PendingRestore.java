package io.flashsale.application.port.out;

import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

/** An order the database closed and restored whose units the hot store still has to give back. */
public record PendingRestore(ReservationId reservationId, ReservationStatus finalStatus) {

    public PendingRestore {
        if (reservationId == null || finalStatus == null || !finalStatus.restoresOrderedUnits()) {
            throw new IllegalArgumentException("a pending restore needs an id and CANCELLED or EXPIRED, not "
                    + reservationId + " " + finalStatus);
        }
    }
}
