package io.flashsale.application.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Orders in the database of record. Once a reservation is an order, this store decides every later move:
 * each one is a conditional transition out of ORDERED that one caller wins and every other loses, and only
 * the winner gives stock back, in the same transaction.
 */
public interface OrderRepository {

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

    Optional<Order> find(ReservationId reservationId);

    /**
     * The request's one order (the key on activity, buyer and request id), whatever its reservation id: a request
     * decided on the database path on one instance and again on Redis through another has its order under the first
     * id only (ADR 61).
     */
    Optional<Order> findByRequest(ActivityId activityId, BuyerId buyerId, RequestId requestId);

    /**
     * ORDERED -> PAID at {@code paidAt}, only before the order's payment deadline (checked in the same conditional
     * move); true when this call made the move, false when the order was not ORDERED or its deadline had passed.
     */
    boolean markPaid(ReservationId reservationId, Instant paidAt);

    /**
     * ORDERED -> CANCELLED | EXPIRED at {@code at}, and only when this call made the move, in the same transaction:
     * the order's units go back (sold and the buyer's purchase rows), a RESTORE stock flow per line is written,
     * and the order is marked as owing the hot store its restore ({@link #dueHotStoreRestores}).
     *
     * @return false, with nothing changed, when the order was not ORDERED
     * @throws IllegalArgumentException when {@code finalStatus} is neither CANCELLED nor EXPIRED
     */
    boolean closeWithRestore(ReservationId reservationId, ReservationStatus finalStatus, Instant at);

    /**
     * ORDERED -> CANCELLED for an order whose reservation the hot store had already released (the buyer cancelled
     * while the order was being placed): the database gives its units back as {@link #closeWithRestore} does, but
     * the hot store owes nothing, as it gave its units back when it released them.
     */
    boolean cancelReleased(ReservationId reservationId, Instant cancelledAt);

    /**
     * Expires the ORDERED order whose payment deadline passed first among those no other caller is expiring right
     * now, as {@link #closeWithRestore} with EXPIRED, in a transaction of its own. Safe to call from every instance
     * at once: each order is expired by one caller only.
     *
     * @return the expired order's id; empty when no order is due
     */
    Optional<ReservationId> expireNextDue(Instant now);

    /**
     * Expires up to {@code max} ORDERED orders whose payment deadline passed, oldest deadline first, in ONE
     * transaction, as {@link #closeWithRestore} with EXPIRED does for one: their units come back grouped per buyer and
     * SKU, and each owes the hot store its restore. Safe to call from every instance at once: orders another caller is
     * expiring right now are skipped, never waited for.
     *
     * @return the expired orders' restores, oldest deadline first; empty when none is due
     */
    List<PendingRestore> expireDue(Instant now, int max);

    /** The hot store has nothing left to give back for these orders: one statement. */
    void hotStoreRestoredAll(List<ReservationId> reservationIds);

    /** Orders that gave their units back here but not yet in the hot store, due by {@code now}, oldest first. */
    List<PendingRestore> dueHotStoreRestores(Instant now, int max);

    /** The hot store has nothing left to give back for this order. */
    void hotStoreRestored(ReservationId reservationId);

    /** The hot store cannot take the restore yet: try again from {@code retryAt}. No effect on a finished restore. */
    void postponeHotStoreRestore(ReservationId reservationId, Instant retryAt);
}
