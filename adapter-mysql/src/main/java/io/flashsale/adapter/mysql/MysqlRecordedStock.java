package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.reconciliation.RecordedOrder;
import io.flashsale.domain.reconciliation.RecordedPurchases;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.springframework.transaction.support.TransactionOperations;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One SKU's figures in MySQL, read in one read-only REPEATABLE READ transaction: InnoDB serves every statement from the
 * snapshot its first read took, so sold, the purchases and the orders' statuses agree with each other however many
 * orders commit meanwhile.
 */
public class MysqlRecordedStock implements RecordedStockPort {

    /** Ids per settlement or purchase query: keeps each statement and its IN list small. */
    static final int CHUNK = 500;

    private final ReconciliationFiguresDao dao;
    private final TransactionOperations snapshotReads;

    /** @param snapshotReads read-only transactions at REPEATABLE READ */
    MysqlRecordedStock(ReconciliationFiguresDao dao, TransactionOperations snapshotReads) {
        this.dao = dao;
        this.snapshotReads = snapshotReads;
    }

    @Override
    public Optional<RecordedSku> recordedSku(ActivityId activityId, SkuId skuId, Collection<ReservationId> reservations,
                                             PurchaseScope purchases) {
        List<String> asked = reservations.stream().map(ReservationId::value).distinct().toList();
        return Optional.ofNullable(snapshotReads.execute(status -> read(activityId, skuId, asked, purchases)));
    }

    private RecordedSku read(ActivityId activityId, SkuId skuId, List<String> asked, PurchaseScope scope) {
        ItemStockRow item = dao.selectItem(activityId.value(), skuId.value());
        if (item == null) {
            return null;
        }
        RecordedPurchases purchases = purchases(activityId, skuId, item, scope);
        Map<ReservationId, RecordedOrder> orders = new HashMap<>();
        inChunks(asked, dao::selectSettlements).forEach(row -> record(row, orders));
        // A reservation refused as its request's duplicate has no order, only its alias row (ADR 61): it counts as
        // refused, so a hot store that was not told (its breaker was open) is told now, not only after a re-drive.
        List<String> withoutOrder = asked.stream().filter(id -> !orders.containsKey(new ReservationId(id))).toList();
        inChunks(withoutOrder, dao::selectRefusedDuplicates).forEach(row -> record(row, orders));
        Set<ReservationId> restoresOwed = new HashSet<>();
        dao.selectRestoresOwed(activityId.value()).forEach(id -> restoresOwed.add(new ReservationId(id)));
        List<RecordedAdjustment> adjustments = dao.selectAdjustments(activityId.value(), skuId.value()).stream()
                .map(row -> new RecordedAdjustment(row.id(), row.delta(), row.createdAt()))
                .toList();
        return new RecordedSku(skuId, item.stock(), item.sold(), purchases, orders, restoresOwed, adjustments);
    }

    /**
     * Every buyer's units only when asked for; otherwise their sum is the SKU's sold figure, which every statement that
     * moves a purchase moves in the same transaction (placement, expiry, cancellation: the fault campaign's checker
     * holds each buyer's purchase to their units in ORDERED and PAID orders, and sold to the sum of those), so a
     * steady look reads no buyer's row but the ones it audits.
     */
    private RecordedPurchases purchases(ActivityId activityId, SkuId skuId, ItemStockRow item, PurchaseScope scope) {
        Map<BuyerId, Long> held = new HashMap<>();
        if (scope.every()) {
            dao.selectPurchases(activityId.value(), skuId.value())
                    .forEach(row -> held.put(new BuyerId(row.buyerId()), row.units()));
            return RecordedPurchases.complete(held);
        }
        List<String> buyers = scope.buyers().stream().map(BuyerId::value).sorted().toList();
        inChunks(buyers, chunk -> dao.selectPurchasesOf(activityId.value(), skuId.value(), chunk))
                .forEach(row -> held.put(new BuyerId(row.buyerId()), row.units()));
        return RecordedPurchases.some(item.sold(), scope.buyers(), held);
    }

    /** The rows of {@code query} over {@code ids}, {@link #CHUNK} ids a statement. */
    private static <R> List<R> inChunks(List<String> ids, Function<List<String>, List<R>> query) {
        List<R> rows = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += CHUNK) {
            rows.addAll(query.apply(ids.subList(from, Math.min(ids.size(), from + CHUNK))));
        }
        return rows;
    }

    private static void record(SettlementRow row, Map<ReservationId, RecordedOrder> orders) {
        ReservationId id = new ReservationId(row.reservationId());
        orders.put(id, new RecordedOrder(id, ReservationStatus.valueOf(row.status()), row.orderedAt() != null,
                row.placedAt()));
    }
}
