package io.flashsale.application.order.port.out;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.Reservation;

import java.time.Instant;
import java.util.List;

/**
 * Settling reservations as orders in the database of record, and recording the ones that must never become one: each
 * call is idempotent by reservation id, and a reservation settled before comes back as {@code AlreadyPlaced}.
 */
public interface OrderPlacementPort {

    /**
     * Settles one reservation in ONE transaction: the order and its lines keyed by the reservation id,
     * the buyer's purchase rows guarded by the per-user limit, the conditional stock update
     * ({@code sold + q <= total}) and one stock-flow row per line. A reservation that was settled before
     * comes back as {@code AlreadyPlaced} and changes nothing; one the database cannot honour is stored as
     * a FAILED order and comes back as {@code Refused}.
     */
    OrderPlacement place(Reservation reservation, Instant now);

    /**
     * Settles a batch of distinct reservations with a fixed number of statements and ONE transaction for all of them:
     * those settled before come back as {@code AlreadyPlaced} and change nothing; the others are decided together
     * as placing them one by one in batch order would ({@link io.flashsale.domain.order.OrderAllocation}), stored
     * as orders or as FAILED orders, and come back as {@code Placed} or {@code Refused}. One placement per
     * reservation, in batch order. A failure of the transaction (a concurrent delivery, a lost connection) leaves
     * nothing of the batch's new orders and reaches the caller.
     */
    List<OrderPlacement> placeAll(List<Reservation> batch, Instant now);

    /**
     * Records a reservation the buyer cancelled while the hot store still held it as a CANCELLED order that
     * takes no stock ({@link Order#cancelledBeforeOrder}), so no later delivery can make it an order. Comes back
     * as {@code CancelledBeforeOrder}, or as {@code AlreadyPlaced} with whatever was settled before.
     */
    OrderPlacement recordCancelledBeforeOrder(Reservation reservation, Instant cancelledAt, Instant now);

    /**
     * Records a reservation whose event was never placed by its deadline (dead-lettered, ADR 78) as a FAILED order
     * ({@link io.flashsale.domain.order.OrderRefusal#NOT_PLACED_IN_TIME}) that takes no stock, so no later delivery or
     * replay can make it an order. Comes back as {@code Refused}, or as {@code AlreadyPlaced} with whatever was
     * settled before (a delivery that placed it after all wins, and its order stands).
     */
    OrderPlacement recordNotPlacedInTime(Reservation reservation, Instant now);
}
