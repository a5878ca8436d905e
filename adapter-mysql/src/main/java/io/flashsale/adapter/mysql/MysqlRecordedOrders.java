package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceOrdersPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An activity's orders in pages for a rebuild of the hot store, and the orders reconciliation looks up by id or by when
 * they closed. Reservation ids are {@code <activityId>.<token>} (ADR 5), so one activity's orders are one range of the
 * primary key: a page is a range scan of at most {@code max} rows, then its lines in one more statement. The orders
 * made in one slice of a sale in slices, which a rebuild of that slice loads (ADR 111), are a narrower range of it.
 */
public class MysqlRecordedOrders implements RecordedOrdersPort, RecordedSliceOrdersPort {

    private final OrderDao dao;
    private final OrderRowMapper mapper;

    MysqlRecordedOrders(OrderDao dao, OrderRowMapper mapper) {
        this.dao = dao;
        this.mapper = mapper;
    }

    @Override
    public List<Order> ordersAfter(ActivityId activityId, Optional<ReservationId> after, int max) {
        requirePositive(max);
        // '.' then '/' are neighbours in every collation's byte order: the activity's ids lie strictly between them.
        String from = after.map(ReservationId::value).orElse(activityId.value() + ".");
        List<String> ids = dao.selectOrderIdsAfter(activityId.value(), from, activityId.value() + "/", max);
        return inIdOrder(ids, OrderReads.ordersOf(dao, mapper, ids));
    }

    /** A page of the slice's range alone, so its cost is the page's orders whatever the other slices hold. */
    @Override
    public List<Order> ordersAfter(SaleSlice slice, Optional<ReservationId> after, int max) {
        requirePositive(max);
        ReservationRange range = ReservationRange.of(slice);
        // Another slice's (or sale's) cursor is a mistake the page would hide: the slice from its start, or nothing.
        if (after.isPresent() && !range.holds(after.get())) {
            throw new IllegalArgumentException("after " + after.get().value() + " is no order of " + slice);
        }
        List<String> ids = dao.selectOrderIdsInRange(range.from(), range.to(),
                after.map(ReservationId::value).orElse(null), max);
        return inIdOrder(ids, OrderReads.ordersOf(dao, mapper, ids));
    }

    @Override
    public List<Order> orders(Collection<ReservationId> reservationIds) {
        if (reservationIds.isEmpty()) {
            return List.of();
        }
        List<String> ids = reservationIds.stream().map(ReservationId::value).toList();
        return inIdOrder(ids, OrderReads.ordersOf(dao, mapper, ids));
    }

    @Override
    public List<Order> closedSince(ActivityId activityId, Instant since) {
        List<String> ids = dao.selectClosedOrderIdsSince(activityId.value(), mapper.storedPrecision(since));
        return inIdOrder(ids, OrderReads.ordersOf(dao, mapper, ids));
    }

    private static void requirePositive(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive, was " + max);
        }
    }

    private static List<Order> inIdOrder(List<String> ids, Map<ReservationId, Order> orders) {
        return ids.stream().map(id -> orders.get(new ReservationId(id))).filter(Objects::nonNull).toList();
    }
}
