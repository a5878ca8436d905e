package io.flashsale.adapter.mysql;

import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * Orders in MySQL. A reservation is settled in one transaction (order, lines, limit-guarded purchases,
 * conditional stock update, stock flow) or, when the database refuses it, rolled back completely and
 * stored as a FAILED order in a second transaction. Lock waits, deadlocks and lost connections are not
 * caught: they reach the caller, whose redelivery finds either nothing or the settled order.
 */
public class MysqlOrderRepository implements OrderRepository {

    private final OrderDao dao;
    private final OrderRowMapper mapper;
    private final TransactionOperations transactions;
    private final StockTaking stockTaking;

    MysqlOrderRepository(OrderDao dao, OrderRowMapper mapper, TransactionOperations transactions) {
        this.dao = dao;
        this.mapper = mapper;
        this.transactions = transactions;
        this.stockTaking = new StockTaking(dao);
    }

    @Override
    public OrderPlacement place(Reservation reservation, Instant now) {
        Optional<Order> settled = find(reservation.id());
        if (settled.isPresent()) {
            // The common redelivery: answered without touching any stock row.
            return new OrderPlacement.AlreadyPlaced(settled.get());
        }
        Order order = mapper.asStored(Order.placed(reservation, now));
        Optional<Map<String, Integer>> limits = stockTaking.prepare(order);
        if (limits.isEmpty()) {
            return storeRefusal(refused(reservation, OrderRefusal.UNKNOWN_ITEM, now));
        }
        Settlement settlement = transactions.execute(status -> settle(order, limits.get(), status));
        return switch (settlement) {
            case Settlement.Settled settledNow -> new OrderPlacement.Placed(order);
            case Settlement.Duplicate duplicate -> alreadyPlaced(order.id());
            case Settlement.Refused refusal -> storeRefusal(refused(reservation, refusal.reason(), now));
        };
    }

    @Override
    public Optional<Order> find(ReservationId reservationId) {
        OrderRow row = dao.selectOrder(reservationId.value());
        if (row == null) {
            return Optional.empty();
        }
        return Optional.of(mapper.toOrder(row, dao.selectLines(reservationId.value())));
    }

    private Settlement settle(Order order, Map<String, Integer> limits, TransactionStatus status) {
        if (!insertNew(order, status)) {
            return new Settlement.Duplicate();
        }
        Optional<OrderRefusal> refusal = stockTaking.take(order, limits);
        if (refusal.isPresent()) {
            // Nothing of this attempt may stay: not the order row, not the lines that passed before.
            status.setRollbackOnly();
            return new Settlement.Refused(refusal.get());
        }
        return new Settlement.Settled();
    }

    private Order refused(Reservation reservation, OrderRefusal reason, Instant now) {
        return mapper.asStored(Order.refused(reservation, reason, now));
    }

    private OrderPlacement storeRefusal(Order failed) {
        Boolean stored = transactions.execute(status -> insertNew(failed, status));
        // A concurrent delivery of the same reservation may have settled it in between.
        return Boolean.TRUE.equals(stored) ? new OrderPlacement.Refused(failed) : alreadyPlaced(failed.id());
    }

    /** Inserts the order and its lines; false, with the transaction marked for rollback, when the order exists. */
    private boolean insertNew(Order order, TransactionStatus status) {
        try {
            dao.insertOrder(mapper.toRow(order));
        } catch (DuplicateKeyException e) {
            // The primary key is the reservation id: an earlier delivery settled it, placed or refused.
            status.setRollbackOnly();
            return false;
        }
        dao.insertLines(mapper.toLineRows(order));
        return true;
    }

    private OrderPlacement alreadyPlaced(ReservationId id) {
        Order stored = find(id).orElseThrow(() -> new IllegalStateException(
                "order " + id + " was refused as a duplicate but cannot be read"));
        return new OrderPlacement.AlreadyPlaced(stored);
    }

    private sealed interface Settlement {

        record Settled() implements Settlement {
        }

        record Duplicate() implements Settlement {
        }

        record Refused(OrderRefusal reason) implements Settlement {
        }
    }
}
