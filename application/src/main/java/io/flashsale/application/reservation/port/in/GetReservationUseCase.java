package io.flashsale.application.reservation.port.in;

import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Optional;

public interface GetReservationUseCase {

    /** Empty when there is no such reservation or it belongs to another buyer: the two look the same. */
    Optional<Reservation> find(BuyerId buyerId, ReservationId reservationId);

    /** As {@link #find}, with the moment of every status change and why a FAILED one was refused. */
    Optional<ReservationView> view(BuyerId buyerId, ReservationId reservationId);
}
