package io.flashsale.application.order.port.in;

import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;

public interface PlaceOrderUseCase {

    /** Settles one delivered reservation in the database of record, then tells the hot store. Safe to repeat. */
    OrderPlacement placeOrder(Reservation reservation);
}
