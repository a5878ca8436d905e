package io.flashsale.application.order.port.in;

import io.flashsale.application.order.model.PaymentResult;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;

public interface PayReservationUseCase {

    /** ORDERED -> PAID for the buyer's own reservation. Safe to repeat; PAID is final; no stock moves. */
    PaymentResult pay(BuyerId buyerId, ReservationId reservationId);
}
