package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.reservation.ReservationId;

import java.util.Collection;
import java.util.Set;

/** Which reservations the order pipeline has settled in the database of record, as an order in any status. */
public interface SettledReservationsPort {

    /** Those of {@code reservationIds} the database of record has no order for yet. */
    Set<ReservationId> unsettled(Collection<ReservationId> reservationIds);
}
