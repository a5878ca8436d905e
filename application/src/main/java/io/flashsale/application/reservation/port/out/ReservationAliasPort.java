package io.flashsale.application.reservation.port.out;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Optional;

/**
 * Which reservation holds the order of a request that was answered with a second reservation (ADR 61): the order
 * pipeline refused the second as the request's duplicate and recorded it as an alias. Read on a buyer's look, payment
 * or cancellation only, never on the reservation path.
 */
public interface ReservationAliasPort {

    /** The reservation whose order holds the request of {@code reservationId}; empty when it is no alias. */
    Optional<ReservationId> orderReservationOf(ReservationId reservationId);

    /**
     * The order of the request {@code reservationId} was answered for, when it is an alias: what a buyer's look,
     * payment or cancellation finds under the second reservation id.
     */
    static Optional<Order> requestOrder(ReservationAliasPort aliases, OrderLookupPort orders,
                                        ReservationId reservationId) {
        return aliases.orderReservationOf(reservationId).flatMap(orders::find);
    }

    /** For a wiring without a database of record: no reservation is an alias. */
    static ReservationAliasPort none() {
        return reservationId -> Optional.empty();
    }
}
