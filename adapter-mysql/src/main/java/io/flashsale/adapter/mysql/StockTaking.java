package io.flashsale.adapter.mysql;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.ReservationLine;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The stock side of placing an order. {@link #prepare} runs before the settling transaction: it reads the
 * limits and creates the buyer's missing purchase rows at once, so that the transaction only ever updates
 * rows that exist. (A purchase row inserted inside the transaction and rolled back by a refusal hands the
 * locks that waited on it to the neighbouring gap, where they deadlock inserts of other buyers.)
 * {@link #take} runs inside the transaction and leaves the rollback to the caller.
 */
final class StockTaking {

    /** Every transaction locks purchase and item rows in SKU order, so multi-SKU orders cannot deadlock. */
    static final Comparator<ReservationLine> LOCK_ORDER = Comparator.comparing(line -> line.skuId().value());

    private final OrderDao dao;

    StockTaking(OrderDao dao) {
        this.dao = dao;
    }

    /** What the activity sets for an order of these SKUs. */
    record Terms(Map<String, Integer> limits, Duration paymentTimeout) {
    }

    /**
     * The per-user limit of every SKU of the order and the payment timeout, with the buyer's purchase rows made;
     * empty when a SKU is unknown.
     */
    Optional<Terms> prepare(Order order) {
        String activityId = order.activityId().value();
        List<String> skuIds = inLockOrder(order).stream().map(line -> line.skuId().value()).toList();
        List<ItemLimitRow> items = dao.selectItemLimits(activityId, skuIds);
        Map<String, Integer> limits = items.stream()
                .collect(Collectors.toMap(ItemLimitRow::skuId, ItemLimitRow::perUserLimit));
        if (limits.size() < skuIds.size()) {
            return Optional.empty();
        }
        dao.createPurchases(activityId, order.buyerId().value(), skuIds);
        return Optional.of(new Terms(limits, Duration.ofSeconds(items.getFirst().paymentTimeoutSeconds())));
    }

    /** Per line in SKU order: the limit-guarded purchase, then the conditional stock update; then the flows. */
    Optional<OrderRefusal> take(Order order, Map<String, Integer> limits) {
        String activityId = order.activityId().value();
        String buyerId = order.buyerId().value();
        List<ReservationLine> lines = inLockOrder(order);
        for (ReservationLine line : lines) {
            String skuId = line.skuId().value();
            if (dao.addToPurchase(activityId, buyerId, skuId, line.quantity(), limits.get(skuId)) == 0) {
                return Optional.of(OrderRefusal.LIMIT_EXCEEDED);
            }
            if (dao.addToSold(activityId, skuId, line.quantity()) == 0) {
                return Optional.of(OrderRefusal.OUT_OF_STOCK);
            }
        }
        dao.insertStockFlows(saleFlows(order, lines));
        return Optional.empty();
    }

    static List<ReservationLine> inLockOrder(Order order) {
        return order.lines().stream().sorted(LOCK_ORDER).toList();
    }

    private static List<StockFlowRow> saleFlows(Order order, List<ReservationLine> lines) {
        Instant at = order.placedAt();
        return lines.stream()
                .map(line -> new StockFlowRow(order.activityId().value(), line.skuId().value(), order.id().value(),
                        StockFlowRow.SALE, line.quantity(), at))
                .toList();
    }
}
