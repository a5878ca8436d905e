package io.flashsale.adapter.mysql;

import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Expires due orders in batches: ONE transaction claims up to N of them with {@code FOR UPDATE SKIP LOCKED} (so
 * instances running at once take other orders), moves them ORDERED -> EXPIRED in one statement, and gives their units
 * back grouped: one guarded statement for all the buyers' purchase rows, one conditional update per SKU, one
 * multi-row insert of RESTORE flows. Rows are touched in the placement's order (orders, then purchases, then SKUs).
 * The books refusing any part (a purchase row or a SKU holding fewer units than come back) rolls the whole batch back.
 */
final class BatchExpiry {

    private static final Comparator<PurchaseRow> PURCHASE_KEY_ORDER = Comparator.comparing(PurchaseRow::activityId)
            .thenComparing(PurchaseRow::buyerId).thenComparing(PurchaseRow::skuId);

    private final OrderDao dao;
    private final OrderRowMapper mapper;
    private final TransactionOperations transactions;
    private final BatchPlacement reads;
    private final DeadlineClock deadlineClock;

    BatchExpiry(OrderDao dao, OrderRowMapper mapper, TransactionOperations transactions, BatchPlacement reads,
                DeadlineClock deadlineClock) {
        this.dao = dao;
        this.deadlineClock = deadlineClock;
        this.mapper = mapper;
        this.transactions = transactions;
        this.reads = reads;
    }

    /**
     * @param now the service's instant: due orders are judged at it and stamped with it when the deadline clock is the
     *            service's; with the database's clock, its instant read at the pass's start does both
     * @return the orders this call expired, in deadline order; empty when none is due
     */
    List<Order> expireDue(Instant now, int max) {
        List<Order> expired = transactions.execute(status -> {
            Instant at = mapper.storedPrecision(deadlineClock.expiryInstant(now, this::databaseNow));
            List<String> ids = dao.selectDueForUpdate(at, max);
            if (ids.isEmpty()) {
                return List.<Order>of();
            }
            if (dao.expireOrdered(ids, at) != ids.size()) {
                throw new IllegalStateException("orders locked as ORDERED did not all expire: " + ids);
            }
            Map<ReservationId, Order> byId = reads.ordersOf(ids);
            List<Order> orders = ids.stream().map(id -> byId.get(new ReservationId(id))).toList();
            giveBack(orders, at);
            return orders;
        });
        return expired == null ? List.of() : expired;
    }

    private Instant databaseNow() {
        return dao.selectUtcNow().toInstant(ZoneOffset.UTC);
    }

    private void giveBack(Collection<Order> orders, Instant at) {
        Map<PurchaseRow, Long> purchases = new TreeMap<>(PURCHASE_KEY_ORDER);
        Map<SkuSaleRow, Long> items = new TreeMap<>(Comparator.comparing(SkuSaleRow::activityId)
                .thenComparing(SkuSaleRow::skuId));
        List<StockFlowRow> flows = new ArrayList<>();
        for (Order order : orders) {
            for (ReservationLine line : order.lines()) {
                String activity = order.activityId().value();
                String sku = line.skuId().value();
                purchases.merge(new PurchaseRow(activity, order.buyerId().value(), sku, 0), (long) line.quantity(),
                        Long::sum);
                items.merge(new SkuSaleRow(activity, sku, 0), (long) line.quantity(), Long::sum);
                flows.add(new StockFlowRow(activity, sku, order.id().value(), StockFlowRow.RESTORE, line.quantity(),
                        at));
            }
        }
        List<PurchaseRow> takenBack = purchases.entrySet().stream()
                .map(e -> new PurchaseRow(e.getKey().activityId(), e.getKey().buyerId(), e.getKey().skuId(),
                        e.getValue()))
                .toList();
        if (dao.subtractFromPurchases(takenBack) != takenBack.size()) {
            throw new IllegalStateException("a buyer's purchase row holds fewer units than the batch gives back; "
                    + "the batch is rolled back");
        }
        items.forEach((item, units) -> {
            if (dao.subtractFromSold(item.activityId(), item.skuId(), Math.toIntExact(units)) != 1) {
                throw new IllegalStateException("cannot give back " + units + " units of " + item.activityId() + "/"
                        + item.skuId() + ": fewer are sold; the batch is rolled back");
            }
        });
        dao.insertStockFlows(flows);
    }
}
