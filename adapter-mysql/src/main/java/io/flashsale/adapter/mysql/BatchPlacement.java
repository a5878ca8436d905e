package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderAllocation;
import io.flashsale.domain.order.OrderAllocation.Decision;
import io.flashsale.domain.order.OrderAllocation.PurchaseKey;
import io.flashsale.domain.order.OrderAllocation.SkuKey;
import io.flashsale.domain.order.OrderAllocation.SkuTerms;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A batch of reservations settled with a fixed number of statements, whatever its size: one read of the orders that
 * exist, one of the orders holding the same requests (a second order for one request is refused, and recorded as an
 * alias of the request's order in the batch's transaction, ADR 61), one read of the terms, the missing purchase rows in one autocommit statement (ADR 8), then ONE transaction
 * that locks the buyers' rows and the SKUs' rows in primary-key order, lets {@link OrderAllocation} decide, and writes
 * orders, lines, purchases and stock flows with multi-row statements and one conditional stock update per SKU. The
 * SKUs' row locks are taken last when the batch places everything ({@link SkuLock}, ADR 34).
 * Anything the database refuses (a duplicate key from a concurrent delivery, a stock update that misses its row, a
 * lost connection) rolls the whole transaction back and reaches the caller, whose retry finds nothing done.
 */
final class BatchPlacement {

    private static final Comparator<PurchaseRow> PURCHASE_KEY_ORDER = Comparator.comparing(PurchaseRow::activityId)
            .thenComparing(PurchaseRow::buyerId).thenComparing(PurchaseRow::skuId);
    private static final Comparator<SkuSaleRow> ITEM_KEY_ORDER = Comparator.comparing(SkuSaleRow::activityId)
            .thenComparing(SkuSaleRow::skuId);

    private final OrderDao dao;
    private final OrderRowMapper mapper;
    private final TransactionOperations transactions;

    BatchPlacement(OrderDao dao, OrderRowMapper mapper, TransactionOperations transactions) {
        this.dao = dao;
        this.mapper = mapper;
        this.transactions = transactions;
    }

    /** @param batch distinct reservations in delivery order; the placements come back in the same order */
    List<OrderPlacement> place(List<Reservation> batch, Instant now) {
        if (batch.isEmpty()) {
            return List.of();
        }
        Map<ReservationId, Order> settled = settled(batch);
        List<Reservation> unsettled = batch.stream().filter(r -> !settled.containsKey(r.id())).toList();
        Duplicates duplicates = duplicateRequests(unsettled, now);
        Map<ReservationId, OrderPlacement> decided = new HashMap<>(duplicates.refused());
        List<Reservation> fresh = unsettled.stream().filter(r -> !decided.containsKey(r.id())).toList();
        if (!fresh.isEmpty()) {
            decided.putAll(settle(fresh, duplicates.aliases(), now));
        } else if (!duplicates.aliases().isEmpty()) {
            transactions.executeWithoutResult(status -> dao.insertAliases(duplicates.aliases()));
        }
        return batch.stream()
                .map(r -> settled.containsKey(r.id()) ? new OrderPlacement.AlreadyPlaced(settled.get(r.id()))
                        : decided.get(r.id()))
                .toList();
    }

    /**
     * Reservations whose request another reservation holds already, in the database or earlier in this batch: refused
     * as {@link OrderRefusal#DUPLICATE_REQUEST} and not stored (the request's one row exists), each with its alias row
     * naming the holder (ADR 61), for the caller to write with the batch. Only a hot store that did not know the
     * request makes them (it lost its request index, or another instance's database path decided the request); a
     * concurrent batch with the same request fails on the unique key instead, and its retry lands here.
     */
    Duplicates duplicateRequests(List<Reservation> unsettled, Instant now) {
        if (unsettled.isEmpty()) {
            return Duplicates.NONE;
        }
        Map<RequestKey, String> holders = new HashMap<>();
        for (OrderRow row : dao.selectRequestHolders(unsettled.stream().map(BatchPlacement::requestKey)
                .distinct().toList())) {
            holders.put(new RequestKey(row.activityId(), row.buyerId(), row.requestId()), row.reservationId());
        }
        Map<ReservationId, OrderPlacement> refused = new HashMap<>();
        List<ReservationAliasRow> aliases = new ArrayList<>();
        for (Reservation reservation : unsettled) {
            String holder = holders.putIfAbsent(requestKey(reservation), reservation.id().value());
            if (holder != null && !holder.equals(reservation.id().value())) {
                Order order = mapper.asStored(Order.refused(reservation, OrderRefusal.DUPLICATE_REQUEST, now));
                refused.put(reservation.id(), new OrderPlacement.Refused(order));
                aliases.add(new ReservationAliasRow(reservation.id().value(), holder,
                        reservation.activityId().value(), reservation.buyerId().value(), order.placedAt()));
            }
        }
        return new Duplicates(refused, aliases);
    }

    /** Refusals as the request's duplicate, and the alias rows that go with them, in batch order. */
    record Duplicates(Map<ReservationId, OrderPlacement> refused, List<ReservationAliasRow> aliases) {

        static final Duplicates NONE = new Duplicates(Map.of(), List.of());
    }

    static RequestKey requestKey(Reservation reservation) {
        return new RequestKey(reservation.activityId().value(), reservation.buyerId().value(),
                reservation.requestId().value());
    }

    private Map<ReservationId, Order> settled(List<Reservation> batch) {
        return ordersOf(batch.stream().map(r -> r.id().value()).distinct().toList());
    }

    /** The orders that exist among {@code ids}, with their lines: two statements. */
    Map<ReservationId, Order> ordersOf(List<String> ids) {
        return OrderReads.ordersOf(dao, mapper, ids);
    }

    private Map<ReservationId, OrderPlacement> settle(List<Reservation> fresh, List<ReservationAliasRow> aliases,
                                                      Instant now) {
        List<String> activityIds = fresh.stream().map(r -> r.activityId().value()).distinct().toList();
        Map<SkuKey, ItemTermsRow> terms = new HashMap<>();
        for (ItemTermsRow row : dao.selectItemTerms(activityIds)) {
            terms.put(new SkuKey(new ActivityId(row.activityId()), new SkuId(row.skuId())), row);
        }
        List<PurchaseRow> purchaseKeys = purchaseKeys(fresh, terms);
        List<SkuSaleRow> itemKeys = itemKeys(purchaseKeys);
        if (!purchaseKeys.isEmpty()) {
            dao.createPurchaseRows(purchaseKeys);
        }
        Map<ReservationId, OrderPlacement> placements;
        try {
            placements = transactions.execute(
                    status -> settleLocked(fresh, aliases, terms, purchaseKeys, itemKeys, now, SkuLock.LAST));
        } catch (StockMoved moved) {
            // Rolled back: decided again on the SKUs' locked rows, as a batch that refuses some always is.
            placements = transactions.execute(
                    status -> settleLocked(fresh, aliases, terms, purchaseKeys, itemKeys, now, SkuLock.FIRST));
        }
        if (placements == null) {
            throw new IllegalStateException("the batch transaction returned nothing");
        }
        return placements;
    }

    /**
     * When the transaction takes the SKUs' row locks. A hot SKU's row is the one lock every batch of its sale (and
     * every expiry batch) needs, so it is held as briefly as possible: {@code LAST} reads the rows unlocked, and only a
     * batch that places every reservation goes on, taking the lock with its conditional stock update after the
     * orders, lines and purchases are written; then only that update, the stock flows and the commit hold it. A
     * batch that would refuse any reservation, or whose update misses (the stock moved since the read), rolls back
     * ({@link StockMoved}) and is decided again with {@code FIRST}: rows locked before the allocation, as one by
     * one would decide. Taking the SKU's lock last also breaks the cycle with a concurrent expiry batch, which holds
     * its due orders' locks while it waits for the same SKU row.
     */
    private enum SkuLock { FIRST, LAST }

    /** The unlocked read no longer holds: the batch is rolled back and decided again on locked rows. */
    private static final class StockMoved extends RuntimeException {

        StockMoved(String message) {
            super(message, null, false, false);
        }
    }

    /** @param aliases the batch's refusals as a request's duplicate (ADR 61), written with its orders */
    private Map<ReservationId, OrderPlacement> settleLocked(List<Reservation> fresh, List<ReservationAliasRow> aliases,
                                                            Map<SkuKey, ItemTermsRow> terms,
                                                            List<PurchaseRow> purchaseKeys, List<SkuSaleRow> itemKeys,
                                                            Instant now, SkuLock skuLock) {
        Map<PurchaseKey, Long> purchased = new HashMap<>();
        if (!purchaseKeys.isEmpty()) {
            for (PurchaseRow row : dao.lockPurchases(purchaseKeys)) {
                purchased.put(new PurchaseKey(new ActivityId(row.activityId()), new BuyerId(row.buyerId()),
                        new SkuId(row.skuId())), row.quantity());
            }
        }
        Map<SkuKey, SkuTerms> skus = new HashMap<>();
        if (!itemKeys.isEmpty()) {
            for (LockedItemRow row : skuLock == SkuLock.FIRST ? dao.lockItems(itemKeys) : dao.readItems(itemKeys)) {
                SkuKey key = new SkuKey(new ActivityId(row.activityId()), new SkuId(row.skuId()));
                skus.put(key, new SkuTerms(Math.max(0, row.stock() - row.sold()), terms.get(key).perUserLimit()));
            }
        }
        OrderAllocation.Result allocation = OrderAllocation.allocate(fresh, skus, purchased);
        if (skuLock == SkuLock.LAST && allocation.decisions().stream().anyMatch(d -> d instanceof Decision.Refuse)) {
            throw new StockMoved("the batch refuses some reservations: decided on locked rows");
        }

        Map<ReservationId, OrderPlacement> placements = new LinkedHashMap<>();
        List<OrderRow> orderRows = new ArrayList<>();
        List<OrderLineRow> lineRows = new ArrayList<>();
        List<StockFlowRow> flows = new ArrayList<>();
        for (Decision decision : allocation.decisions()) {
            Reservation reservation = decision.reservation();
            Order order = switch (decision) {
                case Decision.Place place -> mapper.asStored(Order.placed(reservation, now));
                case Decision.Refuse refuse -> mapper.asStored(Order.refused(reservation, refuse.reason(), now));
            };
            OrderRow row = mapper.toRow(order);
            if (decision instanceof Decision.Place) {
                // From the buyer's answer, not from this placement: a pipeline's lag never lengthens the deadline (ADR 0082).
                row = row.withPaymentDueAt(order.reservedAt().plus(paymentTimeout(reservation, terms)));
                for (ReservationLine line : order.lines()) {
                    flows.add(new StockFlowRow(order.activityId().value(), line.skuId().value(), order.id().value(),
                            StockFlowRow.SALE, line.quantity(), order.placedAt()));
                }
                placements.put(order.id(), new OrderPlacement.Placed(order));
            } else {
                placements.put(order.id(), new OrderPlacement.Refused(order));
            }
            orderRows.add(row);
            lineRows.addAll(mapper.toLineRows(order));
        }
        dao.insertOrders(orderRows);
        dao.insertLines(lineRows);
        if (!aliases.isEmpty()) {
            // After the orders: an alias may name one of them (the request's first reservation in this batch).
            dao.insertAliases(aliases);
        }
        if (!allocation.purchaseAdded().isEmpty()) {
            dao.addToPurchases(allocation.purchaseAdded().entrySet().stream()
                    .map(e -> new PurchaseRow(e.getKey().activityId().value(), e.getKey().buyerId().value(),
                            e.getKey().skuId().value(), e.getValue()))
                    .sorted(PURCHASE_KEY_ORDER).toList());
        }
        Map<SkuKey, Long> sold = new TreeMap<>(Comparator.comparing((SkuKey k) -> k.activityId().value())
                .thenComparing(k -> k.skuId().value()));
        sold.putAll(allocation.soldBySku());
        sold.forEach((sku, units) -> {
            if (dao.addToSold(sku.activityId().value(), sku.skuId().value(), Math.toIntExact(units)) != 1) {
                if (skuLock == SkuLock.LAST) {
                    throw new StockMoved("the stock of " + sku + " moved since it was read");
                }
                // The rows are locked and the allocation stayed within them: a miss means the books moved under the lock.
                throw new IllegalStateException("the stock update of " + sku + " for " + units
                        + " units missed its row; the batch is rolled back");
            }
        });
        if (!flows.isEmpty()) {
            dao.insertStockFlows(flows);
        }
        return placements;
    }

    private static Duration paymentTimeout(Reservation reservation, Map<SkuKey, ItemTermsRow> terms) {
        ReservationLine first = reservation.lines().getFirst();
        return Duration.ofSeconds(terms.get(new SkuKey(reservation.activityId(), first.skuId()))
                .paymentTimeoutSeconds());
    }

    /** The purchase rows of every reservation whose SKUs all exist, distinct, in key order. */
    private static List<PurchaseRow> purchaseKeys(List<Reservation> fresh, Map<SkuKey, ItemTermsRow> terms) {
        return fresh.stream()
                .filter(r -> r.lines().stream().allMatch(l -> terms.containsKey(new SkuKey(r.activityId(), l.skuId()))))
                .flatMap(r -> r.lines().stream().map(l -> new PurchaseRow(r.activityId().value(), r.buyerId().value(),
                        l.skuId().value(), 0)))
                .distinct().sorted(PURCHASE_KEY_ORDER).toList();
    }

    private static List<SkuSaleRow> itemKeys(List<PurchaseRow> purchaseKeys) {
        return purchaseKeys.stream().map(p -> new SkuSaleRow(p.activityId(), p.skuId(), 0))
                .distinct().sorted(ITEM_KEY_ORDER).toList();
    }
}
