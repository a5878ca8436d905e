package io.flashsale.adapter.mysql;

import io.flashsale.application.port.out.RecordedStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.reconciliation.RecordedOrder;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.springframework.transaction.support.TransactionOperations;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One SKU's figures in MySQL, read in one read-only REPEATABLE READ transaction: InnoDB serves every statement from the
 * snapshot its first read took, so sold, the purchases and the orders' statuses agree with each other however many
 * orders commit meanwhile.
 */
public class MysqlRecordedStock implements RecordedStockPort {

    /** Ids per settlement query: keeps each statement and its IN list small. */
    static final int CHUNK = 500;

    private final ReconciliationFiguresDao dao;
    private final TransactionOperations snapshotReads;

    /** @param snapshotReads read-only transactions at REPEATABLE READ */
    MysqlRecordedStock(ReconciliationFiguresDao dao, TransactionOperations snapshotReads) {
        this.dao = dao;
        this.snapshotReads = snapshotReads;
    }

    @Override
    public Optional<RecordedSku> recordedSku(ActivityId activityId, SkuId skuId, Collection<ReservationId> reservations) {
        List<String> asked = reservations.stream().map(ReservationId::value).distinct().toList();
        return Optional.ofNullable(snapshotReads.execute(status -> read(activityId, skuId, asked)));
    }

    private RecordedSku read(ActivityId activityId, SkuId skuId, List<String> asked) {
        ItemStockRow item = dao.selectItem(activityId.value(), skuId.value());
        if (item == null) {
            return null;
        }
        Map<BuyerId, Long> purchases = new HashMap<>();
        dao.selectPurchases(activityId.value(), skuId.value())
                .forEach(row -> purchases.put(new BuyerId(row.buyerId()), row.units()));
        Map<ReservationId, RecordedOrder> orders = new HashMap<>();
        for (int from = 0; from < asked.size(); from += CHUNK) {
            dao.selectSettlements(asked.subList(from, Math.min(asked.size(), from + CHUNK)))
                    .forEach(row -> record(row, orders));
        }
        // A reservation refused as its request's duplicate has no order, only its alias row (ADR 61): it counts as
        // refused, so a hot store that was not told (its breaker was open) is told now, not only after a re-drive.
        List<String> withoutOrder = asked.stream().filter(id -> !orders.containsKey(new ReservationId(id))).toList();
        for (int from = 0; from < withoutOrder.size(); from += CHUNK) {
            dao.selectRefusedDuplicates(withoutOrder.subList(from, Math.min(withoutOrder.size(), from + CHUNK)))
                    .forEach(row -> record(row, orders));
        }
        Set<ReservationId> restoresOwed = new HashSet<>();
        dao.selectRestoresOwed(activityId.value()).forEach(id -> restoresOwed.add(new ReservationId(id)));
        List<RecordedAdjustment> adjustments = dao.selectAdjustments(activityId.value(), skuId.value()).stream()
                .map(row -> new RecordedAdjustment(row.id(), row.delta(), row.createdAt()))
                .toList();
        return new RecordedSku(skuId, item.stock(), item.sold(), purchases, orders, restoresOwed, adjustments);
    }

    private static void record(SettlementRow row, Map<ReservationId, RecordedOrder> orders) {
        ReservationId id = new ReservationId(row.reservationId());
        orders.put(id, new RecordedOrder(id, ReservationStatus.valueOf(row.status()), row.orderedAt() != null,
                row.placedAt()));
    }
}
