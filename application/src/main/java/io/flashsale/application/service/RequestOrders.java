package io.flashsale.application.service;

import io.flashsale.application.port.out.OrderLookupPort;
import io.flashsale.application.port.out.ReservationAliasPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Optional;

/** The order of a reservation's request held under another reservation id, when the id is an alias (ADR 61). */
final class RequestOrders {

    private RequestOrders() {
    }

    static Optional<Order> of(ReservationAliasPort aliases, OrderLookupPort orders, ReservationId reservationId) {
        return aliases.orderReservationOf(reservationId).flatMap(orders::find);
    }
}
