package io.flashsale.application.order.port.in;

import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;

public interface CancelReservationUseCase {

    /**
     * RESERVED or ORDERED -> CANCELLED for the buyer's own reservation; its units go back exactly once, in the
     * database of record and in the hot store. Safe to repeat.
     */
    CancellationResult cancel(BuyerId buyerId, ReservationId reservationId);
}
