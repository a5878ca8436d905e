package io.flashsale.application.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The database of record's orders as reconciliation needs them: one activity's read in bounded pages (what a rebuild of
 * the hot store loads), and the cancellation of an order whose buyer's cancel won in the hot store.
 */
public interface RecordedOrdersPort {

    /**
     * At most {@code max} orders of the activity, every status, with their lines, in reservation id order, starting
     * after {@code after} (from the first when empty). Each call reads the orders as they stand now.
     */
    List<Order> ordersAfter(ActivityId activityId, Optional<ReservationId> after, int max);

    /**
     * Cancels an ORDERED order whose reservation the buyer cancelled in the hot store first (the cancel/commit race,
     * ADR 32): the order's units go back to the database's books in the same transaction, and only the call that
     * closes it gives them back. The hot store owes no restore: it gave the units back when the buyer cancelled.
     *
     * @return true when this call cancelled it; false when the order is not ORDERED (any more)
     */
    boolean cancelReleased(ReservationId reservationId, Instant cancelledAt);

    /** The orders of these ids the database holds, with their lines, in no particular order. */
    List<Order> orders(Collection<ReservationId> reservationIds);

    /** The activity's orders that became an order and were closed (CANCELLED, EXPIRED) at or after {@code since}. */
    List<Order> closedSince(ActivityId activityId, Instant since);
}
