package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Optional;

/** The order of a reservation's request held under another reservation id, when the id is an alias (ADR 61). */
public final class RequestOrders {

    private RequestOrders() {
    }

    public static Optional<Order> of(ReservationAliasPort aliases, OrderLookupPort orders, ReservationId reservationId) {
        return aliases.orderReservationOf(reservationId).flatMap(orders::find);
    }
}
