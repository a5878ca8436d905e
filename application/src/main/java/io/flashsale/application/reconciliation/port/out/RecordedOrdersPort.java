package io.flashsale.application.reconciliation.port.out;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The database of record's orders as reconciliation reads them: one activity's in bounded pages (what a rebuild of the
 * hot store loads), those of given ids, and those closed since a moment. Cancelling an order whose buyer's cancel won in
 * the hot store is a move out of ORDERED like any other: {@link OrderTransitionsPort#cancelReleased}.
 */
public interface RecordedOrdersPort {

    /**
     * At most {@code max} orders of the activity, every status, with their lines, in reservation id order, starting
     * after {@code after} (from the first when empty). Each call reads the orders as they stand now.
     */
    List<Order> ordersAfter(ActivityId activityId, Optional<ReservationId> after, int max);

    /** The orders of these ids the database holds, with their lines, in no particular order. */
    List<Order> orders(Collection<ReservationId> reservationIds);

    /** The activity's orders that became an order and were closed (CANCELLED, EXPIRED) at or after {@code since}. */
    List<Order> closedSince(ActivityId activityId, Instant since);
}
