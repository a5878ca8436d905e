package io.flashsale.adapter.mysql;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.stock.ActivityLedger;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Orders in MySQL. A reservation is settled in one transaction (order, lines, limit-guarded purchases,
 * conditional stock update, stock flow) or, when the database refuses it, rolled back completely and
 * stored as a FAILED order in a second transaction. Every later move is one conditional UPDATE out of
 * ORDERED; the transaction that changes the row gives the stock back in the same transaction, and no other
 * can. Lock waits, deadlocks and lost connections are not caught: they reach the caller, whose retry finds
 * either nothing done or everything done. One class serves the four order ports, since they share the one conditional
 * close and its stock giving-back; each caller is given only the port it uses.
 */
public class MysqlOrderRepository
        implements OrderPlacementPort, OrderLookupPort, OrderTransitionsPort, RestoreQueuePort {

    private final OrderDao dao;
    private final OrderRowMapper mapper;
    private final TransactionOperations transactions;
    private final StockTaking stockTaking;
    private final StockRestoring stockRestoring;
    private final BatchPlacement batchPlacement;
    private final BatchExpiry batchExpiry;
    private final RestoredStock restoredStock;
    private final DeadlineClock deadlineClock;

    MysqlOrderRepository(OrderDao dao, OrderRowMapper mapper, TransactionOperations transactions,
                         RestoredStock restoredStock, DeadlineClock deadlineClock) {
        this.dao = dao;
        this.deadlineClock = deadlineClock;
        this.mapper = mapper;
        this.transactions = transactions;
        this.stockTaking = new StockTaking(dao);
        this.stockRestoring = new StockRestoring(dao);
        this.batchPlacement = new BatchPlacement(dao, mapper, transactions);
        this.batchExpiry = new BatchExpiry(dao, mapper, transactions, batchPlacement, deadlineClock);
        this.restoredStock = restoredStock;
    }

    @Override
    public List<PendingRestore> expireDue(Instant now, int max) {
        if (max < 1) {
            throw new IllegalArgumentException("max must be positive");
        }
        List<Order> expired = batchExpiry.expireDue(now, max);
        restoredStock.restored(ReservationStatus.EXPIRED, expired);
        return expired.stream().map(order -> PendingRestore.of(order, ReservationStatus.EXPIRED)).toList();
    }

    @Override
    public void hotStoreRestoredAll(List<ReservationId> reservationIds) {
        if (!reservationIds.isEmpty()) {
            dao.clearRestoresDue(reservationIds.stream().map(ReservationId::value).toList());
        }
    }

    @Override
    public List<OrderPlacement> placeAll(List<Reservation> batch, Instant now) {
        return batchPlacement.place(batch, now);
    }

    @Override
    public OrderPlacement place(Reservation reservation, Instant now) {
        Optional<Order> settled = find(reservation.id());
        if (settled.isPresent()) {
            // The common redelivery: answered without touching any stock row.
            return new OrderPlacement.AlreadyPlaced(settled.get());
        }
        Optional<OrderPlacement> sameRequest = duplicateRequest(reservation, now);
        if (sameRequest.isPresent()) {
            return sameRequest.get();
        }
        Order order = mapper.asStored(Order.placed(reservation, now));
        Optional<StockTaking.Terms> terms = stockTaking.prepare(order);
        if (terms.isEmpty()) {
            return storeRefusal(refused(reservation, OrderRefusal.UNKNOWN_ITEM, now));
        }
        Settlement settlement = transactions.execute(status -> settle(order, terms.get(), status));
        return switch (settlement) {
            case Settlement.Settled settledNow -> new OrderPlacement.Placed(order);
            case Settlement.Duplicate duplicate -> alreadyPlaced(order.id());
            case Settlement.Refused refusal -> storeRefusal(refused(reservation, refusal.reason(), now));
        };
    }

    @Override
    public OrderPlacement recordCancelledBeforeOrder(Reservation reservation, Instant cancelledAt, Instant now) {
        Optional<Order> settled = find(reservation.id());
        if (settled.isPresent()) {
            return new OrderPlacement.AlreadyPlaced(settled.get());
        }
        Order cancelled = mapper.asStored(Order.cancelledBeforeOrder(reservation, cancelledAt, now));
        if (batchPlacement.duplicateRequests(List.of(reservation), now).refused().containsKey(reservation.id())) {
            // Another reservation holds the request's one row; this one sold nothing, so nothing needs storing.
            return new OrderPlacement.CancelledBeforeOrder(cancelled);
        }
        Boolean stored = transactions.execute(status -> insertNew(mapper.toRow(cancelled), cancelled, status));
        // A concurrent delivery may have placed it in between: then that order stands, and the caller sees it.
        return Boolean.TRUE.equals(stored) ? new OrderPlacement.CancelledBeforeOrder(cancelled)
                : alreadyPlaced(cancelled.id());
    }

    @Override
    public OrderPlacement recordNotPlacedInTime(Reservation reservation, Instant now) {
        Optional<Order> settled = find(reservation.id());
        if (settled.isPresent()) {
            return new OrderPlacement.AlreadyPlaced(settled.get());
        }
        Order failed = refused(reservation, OrderRefusal.NOT_PLACED_IN_TIME, now);
        if (batchPlacement.duplicateRequests(List.of(reservation), now).refused().containsKey(reservation.id())) {
            // Another reservation holds the request's one row; this one sold nothing, so nothing needs storing.
            return new OrderPlacement.Refused(failed);
        }
        // A concurrent delivery may place it in between: then that order stands, and the caller sees it.
        return storeRefusal(failed);
    }

    /**
     * Refused as DUPLICATE_REQUEST, unstored, when another reservation's order holds this reservation's request; its
     * alias row (ADR 61) is the one write, a statement of its own.
     */
    private Optional<OrderPlacement> duplicateRequest(Reservation reservation, Instant now) {
        BatchPlacement.Duplicates duplicates = batchPlacement.duplicateRequests(List.of(reservation), now);
        if (!duplicates.aliases().isEmpty()) {
            dao.insertAliases(duplicates.aliases());
        }
        return Optional.ofNullable(duplicates.refused().get(reservation.id()));
    }

    @Override
    public Optional<Order> find(ReservationId reservationId) {
        OrderRow row = dao.selectOrder(reservationId.value());
        if (row == null) {
            return Optional.empty();
        }
        return Optional.of(mapper.toOrder(row, dao.selectLines(reservationId.value())));
    }

    @Override
    public Optional<Order> findByRequest(ActivityId activityId, BuyerId buyerId, RequestId requestId) {
        OrderRow row = dao.selectOrderByRequest(activityId.value(), buyerId.value(), requestId.value());
        if (row == null) {
            return Optional.empty();
        }
        return Optional.of(mapper.toOrder(row, dao.selectLines(row.reservationId())));
    }

    @Override
    public boolean markPaid(ReservationId reservationId, Instant paidAt) {
        // One statement: it is its own transaction, and paying moves no stock. The deadline is part of its condition.
        Instant at = mapper.storedPrecision(paidAt);
        return dao.markPaid(reservationId.value(), at, deadlineClock.judgedAt(at)) == 1;
    }

    @Override
    public boolean closeWithRestore(ReservationId reservationId, ReservationStatus finalStatus, Instant at) {
        ActivityLedger.requireRestoringStatus(finalStatus);
        return counted(finalStatus, transactions.execute(status -> close(reservationId, finalStatus, at, at)));
    }

    @Override
    public boolean cancelReleased(ReservationId reservationId, Instant cancelledAt) {
        return counted(ReservationStatus.CANCELLED, transactions.execute(
                status -> close(reservationId, ReservationStatus.CANCELLED, cancelledAt, null)));
    }

    @Override
    public List<PendingRestore> dueHotStoreRestores(Instant now, int max) {
        // The hot store keeps no record of an ordered reservation (ADR 71): its restore brings the order's lines.
        List<String> ids = dao.selectDueRestores(mapper.storedPrecision(now), max).stream()
                .map(PendingRestoreRow::reservationId).toList();
        Map<ReservationId, Order> due = OrderReads.ordersOf(dao, mapper, ids);
        return ids.stream().map(id -> due.get(new ReservationId(id))).filter(Objects::nonNull)
                .map(PendingRestore::of).toList();
    }

    @Override
    public void hotStoreRestored(ReservationId reservationId) {
        dao.clearRestoreDue(reservationId.value());
    }

    @Override
    public void postponeHotStoreRestore(ReservationId reservationId, Instant retryAt) {
        dao.postponeRestoreDue(reservationId.value(), mapper.storedPrecision(retryAt));
    }

    /**
     * Inside a transaction: ORDERED -> {@code to}, and only if this call made the move, the stock comes back.
     *
     * @param restoreDueAt when the hot store's restore is due; null when the hot store owes none
     * @return the closed order; null when this call did not close it
     */
    private Order close(ReservationId id, ReservationStatus to, Instant at, Instant restoreDueAt) {
        Instant stored = mapper.storedPrecision(at);
        if (dao.closeOrdered(id.value(), to.name(), stored, mapper.storedPrecision(restoreDueAt)) == 0) {
            return null;
        }
        Order order = find(id).orElseThrow(() -> new IllegalStateException("order " + id + " vanished while closed"));
        stockRestoring.giveBack(order, stored);
        return order;
    }

    /** Counts a committed close's units; true when there was one. */
    private boolean counted(ReservationStatus closedAs, Order closed) {
        if (closed == null) {
            return false;
        }
        restoredStock.restored(closedAs, List.of(closed));
        return true;
    }

    private Settlement settle(Order order, StockTaking.Terms terms, TransactionStatus status) {
        OrderRow row = mapper.toRow(order).withPaymentDueAt(order.reservedAt().plus(terms.paymentTimeout()));
        if (!insertNew(row, order, status)) {
            return new Settlement.Duplicate();
        }
        Optional<OrderRefusal> refusal = stockTaking.take(order, terms.limits());
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
        Boolean stored = transactions.execute(status -> insertNew(mapper.toRow(failed), failed, status));
        // A concurrent delivery of the same reservation may have settled it in between.
        return Boolean.TRUE.equals(stored) ? new OrderPlacement.Refused(failed) : alreadyPlaced(failed.id());
    }

    /** Inserts the order and its lines; false, with the transaction marked for rollback, when the order exists. */
    private boolean insertNew(OrderRow row, Order order, TransactionStatus status) {
        try {
            dao.insertOrders(List.of(row));
        } catch (DuplicateKeyException e) {
            // The primary key is the reservation id: an earlier delivery settled it, placed or refused.
            status.setRollbackOnly();
            return false;
        }
        dao.insertLines(mapper.toLineRows(order));
        return true;
    }

    private OrderPlacement alreadyPlaced(ReservationId id) {
        // A miss: the unique request key refused it, for a concurrent order of the same request; the retry refuses it.
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
