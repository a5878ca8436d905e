package io.flashsale.adapter.mysql;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationLine;

import java.time.Instant;
import java.util.List;

/**
 * The stock side of closing an order: what {@link StockTaking#take} took comes back, inside the closing transaction
 * and in the same lock order (per SKU: the purchase row, then the item row). Runs only for the caller that won the
 * transition, and the RESTORE stock flow, unique per reservation and SKU, makes a second restore fail outright.
 */
final class StockRestoring {

    private final OrderDao dao;

    StockRestoring(OrderDao dao) {
        this.dao = dao;
    }

    /** @throws IllegalStateException when the books cannot hold the restore: the caller's transaction rolls back */
    void giveBack(Order order, Instant at) {
        String activityId = order.activityId().value();
        String buyerId = order.buyerId().value();
        List<ReservationLine> lines = StockTaking.inLockOrder(order);
        for (ReservationLine line : lines) {
            String skuId = line.skuId().value();
            if (dao.subtractFromPurchase(activityId, buyerId, skuId, line.quantity()) == 0) {
                throw booksDisagree(order, skuId, "the buyer's purchase row holds fewer units");
            }
            if (dao.subtractFromSold(activityId, skuId, line.quantity()) == 0) {
                throw booksDisagree(order, skuId, "fewer units are sold");
            }
        }
        dao.insertStockFlows(lines.stream()
                .map(line -> new StockFlowRow(activityId, line.skuId().value(), order.id().value(),
                        StockFlowRow.RESTORE, line.quantity(), at))
                .toList());
    }

    private static IllegalStateException booksDisagree(Order order, String skuId, String why) {
        return new IllegalStateException("cannot give back order " + order.id() + " for SKU " + skuId + ": " + why);
    }
}
