package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;

import java.util.List;
import java.util.Optional;

/**
 * The database of record's orders made in one slice of a sale in slices (ADR 111): those whose reservation ids name
 * the slice, which are every order of the buyers whose home it is. What a rebuild of one lost slice loads.
 */
public interface RecordedSliceOrdersPort {

    /**
     * As {@link RecordedOrdersPort#ordersAfter}, within the slice: at most {@code max} of its orders, every status,
     * with their lines, in reservation id order, after {@code after}. Its cost follows the slice's orders, never the
     * other slices'.
     */
    List<Order> ordersAfter(SaleSlice slice, Optional<ReservationId> after, int max);
}
