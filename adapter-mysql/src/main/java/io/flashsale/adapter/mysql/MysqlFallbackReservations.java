package io.flashsale.adapter.mysql;

import io.flashsale.application.reservation.port.out.FallbackReservationPort;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionOperations;

import java.util.List;
import java.util.Optional;

/**
 * Reservations decided by MySQL while Redis is out. One transaction: the buyer's purchase row of the first SKU is
 * locked (one buyer's attempts on this path queue there, so an idempotency key is looked up after any earlier attempt
 * with it committed), then the order and its lines go in as ORDERED, then per line in SKU order the limit-guarded
 * purchase and the conditional stock update, the same statements the order pipeline settles with. A refusal rolls the
 * whole attempt back: no FAILED order stays, as nothing was accepted. The refusal's figures (units left, units held)
 * are read after the rollback and are only what the buyer is told.
 */
public class MysqlFallbackReservations implements FallbackReservationPort {

    private final OrderDao orders;
    private final FallbackDao fallback;
    private final OrderRowMapper mapper;
    private final TransactionOperations transactions;
    private final StockTaking stockTaking;

    MysqlFallbackReservations(OrderDao orders, FallbackDao fallback, OrderRowMapper mapper,
                              TransactionOperations transactions) {
        this.orders = orders;
        this.fallback = fallback;
        this.mapper = mapper;
        this.transactions = transactions;
        this.stockTaking = new StockTaking(orders);
    }

    @Override
    public ReservationOutcome reserve(ReservationRequest request) {
        Order order = mapper.asStored(Order.placed(request.toReservation(), request.at()));
        Optional<StockTaking.Terms> terms = stockTaking.prepare(order);
        if (terms.isEmpty()) {
            SkuId unknown = request.lines().getFirst().skuId();
            return new ReservationOutcome.UnknownSku(unknown);
        }
        Decision decision = transactions.execute(status -> decide(order, terms.get(), status));
        return switch (decision) {
            case Decision.Taken taken -> new ReservationOutcome.Reserved(order.toReservation());
            case Decision.Replayed replayed -> replayedOutcome(replayed.reservationId(), order);
            case Decision.Refused refused -> refusal(order, refused, terms.get());
        };
    }

    @Override
    public Optional<Reservation> acceptedBefore(ReservationRequest request) {
        String earlier = fallback.selectByRequest(request.activityId().value(), request.buyerId().value(),
                request.requestId().value());
        return earlier == null ? Optional.empty() : Optional.of(stored(new ReservationId(earlier)).toReservation());
    }

    private Decision decide(Order order, StockTaking.Terms terms, TransactionStatus status) {
        String activityId = order.activityId().value();
        String buyerId = order.buyerId().value();
        List<ReservationLine> lines = StockTaking.inLockOrder(order);
        fallback.lockPurchase(activityId, buyerId, lines.getFirst().skuId().value());
        String earlier = fallback.selectByRequest(activityId, buyerId, order.requestId().value());
        if (earlier != null) {
            status.setRollbackOnly();
            return new Decision.Replayed(new ReservationId(earlier));
        }
        orders.insertOrders(List.of(mapper.toRow(order)
                .withPaymentDueAt(order.reservedAt().plus(terms.paymentTimeout()))));
        orders.insertLines(mapper.toLineRows(order));
        for (ReservationLine line : lines) {
            String skuId = line.skuId().value();
            if (orders.addToPurchase(activityId, buyerId, skuId, line.quantity(), terms.limits().get(skuId)) == 0) {
                status.setRollbackOnly();
                return new Decision.Refused(line, OrderRefusal.LIMIT_EXCEEDED);
            }
            if (orders.addToSold(activityId, skuId, line.quantity()) == 0) {
                status.setRollbackOnly();
                return new Decision.Refused(line, OrderRefusal.OUT_OF_STOCK);
            }
        }
        orders.insertStockFlows(lines.stream()
                .map(line -> new StockFlowRow(activityId, line.skuId().value(), order.id().value(),
                        StockFlowRow.SALE, line.quantity(), order.placedAt()))
                .toList());
        return new Decision.Taken();
    }

    private ReservationOutcome replayedOutcome(ReservationId earlier, Order attempt) {
        return new ReservationOutcome.Replayed(stored(earlier).toReservation());
    }

    private Order stored(ReservationId earlier) {
        OrderRow row = orders.selectOrder(earlier.value());
        if (row == null) {
            throw new IllegalStateException("order " + earlier + " was found by its request and then vanished");
        }
        return mapper.toOrder(row, orders.selectLines(earlier.value()));
    }

    private ReservationOutcome refusal(Order order, Decision.Refused refused, StockTaking.Terms terms) {
        String activityId = order.activityId().value();
        String skuId = refused.line().skuId().value();
        if (refused.reason() == OrderRefusal.LIMIT_EXCEEDED) {
            Long held = fallback.selectHeld(activityId, order.buyerId().value(), skuId);
            return new ReservationOutcome.LimitExceeded(refused.line().skuId(), terms.limits().get(skuId),
                    held == null ? 0 : held);
        }
        Long available = fallback.selectAvailable(activityId, skuId);
        long left = available == null ? 0 : Math.max(0, available);
        return left == 0 ? new ReservationOutcome.SoldOut(refused.line().skuId())
                : new ReservationOutcome.InsufficientStock(refused.line().skuId(), left);
    }

    private sealed interface Decision {

        record Taken() implements Decision {
        }

        record Replayed(ReservationId reservationId) implements Decision {
        }

        record Refused(ReservationLine line, OrderRefusal reason) implements Decision {
        }
    }
}
