package io.flashsale.adapter.mysql;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Orders read by id with their lines in a fixed two statements, whatever their number. */
final class OrderReads {

    private OrderReads() {
    }

    /** The orders that exist among {@code ids}, with their lines. */
    static Map<ReservationId, Order> ordersOf(OrderDao dao, OrderRowMapper mapper, List<String> ids) {
        if (ids.isEmpty()) {
            return Map.of();
        }
        List<OrderRow> rows = dao.selectOrders(ids);
        if (rows.isEmpty()) {
            return Map.of();
        }
        Map<String, List<OrderLineRow>> lines = dao.selectLinesOf(rows.stream().map(OrderRow::reservationId).toList())
                .stream().collect(Collectors.groupingBy(OrderLineRow::reservationId));
        Map<ReservationId, Order> orders = new HashMap<>();
        for (OrderRow row : rows) {
            orders.put(new ReservationId(row.reservationId()),
                    mapper.toOrder(row, lines.getOrDefault(row.reservationId(), List.of())));
        }
        return orders;
    }
}
