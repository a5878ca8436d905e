package io.flashsale.application.port.out;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Optional;

/** Orders in the database of record. */
public interface OrderRepository {

    /**
     * Settles one reservation in ONE transaction: the order and its lines keyed by the reservation id,
     * the buyer's purchase rows guarded by the per-user limit, the conditional stock update
     * ({@code sold + q <= total}) and one stock-flow row per line. A reservation that was settled before
     * comes back as {@code AlreadyPlaced} and changes nothing; one the database cannot honour is stored as
     * a FAILED order and comes back as {@code Refused}.
     */
    OrderPlacement place(Reservation reservation, Instant now);

    Optional<Order> find(ReservationId reservationId);
}
