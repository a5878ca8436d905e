package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
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
import io.flashsale.domain.slice.SaleSlice;
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
 * orders commit meanwhile. The whole SKU's sold and purchases come from its item and buyer rows; one slice's (ADR 110)
 * from the slice's orders, one range of the primary key, since those rows keep no figures per slice.
 */
public class MysqlRecordedStock implements RecordedStockPort, RecordedSliceStockPort {

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
        return read(activityId, skuId, ReservationRange.of(activityId), reservations,
                item -> wholeSku(activityId, skuId, item, purchases));
    }

    @Override
    public Optional<RecordedSku> recordedSlice(SaleSlice slice, SkuId skuId, Collection<ReservationId> reservations,
                                               PurchaseScope purchases) {
        ReservationRange range = ReservationRange.of(slice);
        return read(slice.activityId(), skuId, range, reservations,
                item -> inRange(slice.activityId(), skuId, range, purchases));
    }

    /** What the two reads share; {@code held} reads sold and the purchases, the part where they differ. */
    private Optional<RecordedSku> read(ActivityId activityId, SkuId skuId, ReservationRange range,
                                       Collection<ReservationId> reservations, Function<ItemStockRow, Held> held) {
        List<String> asked = reservations.stream().map(ReservationId::value).distinct().toList();
        return Optional.ofNullable(snapshotReads.execute(status -> {
            ItemStockRow item = dao.selectItem(activityId.value(), skuId.value());
            return item == null ? null : recorded(activityId, skuId, range, asked, item, held.apply(item));
        }));
    }

    private RecordedSku recorded(ActivityId activityId, SkuId skuId, ReservationRange range, List<String> asked,
                                 ItemStockRow item, Held held) {
        Map<ReservationId, RecordedOrder> orders = new HashMap<>();
        inChunks(asked, dao::selectSettlements).forEach(row -> record(row, orders));
        // A reservation refused as its request's duplicate has no order, only its alias row (ADR 61): it counts as
        // refused, so a hot store that was not told (its breaker was open) is told now, not only after a re-drive.
        List<String> withoutOrder = asked.stream().filter(id -> !orders.containsKey(new ReservationId(id))).toList();
        inChunks(withoutOrder, dao::selectRefusedDuplicates).forEach(row -> record(row, orders));
        Set<ReservationId> restoresOwed = new HashSet<>();
        dao.selectRestoresOwed(range.from(), range.to()).forEach(id -> restoresOwed.add(new ReservationId(id)));
        List<RecordedAdjustment> adjustments = dao.selectAdjustments(activityId.value(), skuId.value()).stream()
                .map(row -> new RecordedAdjustment(row.id(), row.delta(), row.createdAt()))
                .toList();
        return new RecordedSku(skuId, item.stock(), held.sold(), held.purchases(), orders, restoresOwed, adjustments);
    }

    /**
     * Every buyer's units only when asked for; otherwise their sum is the SKU's sold figure, which every statement that
     * moves a purchase moves in the same transaction (placement, expiry, cancellation: the fault campaign's checker
     * holds each buyer's purchase to their units in ORDERED and PAID orders, and sold to the sum of those), so a
     * steady look reads no buyer's row but the ones it audits.
     */
    private Held wholeSku(ActivityId activityId, SkuId skuId, ItemStockRow item, PurchaseScope scope) {
        if (scope.every()) {
            return new Held(item.sold(),
                    RecordedPurchases.complete(byBuyer(dao.selectPurchases(activityId.value(), skuId.value()))));
        }
        return new Held(item.sold(), some(item.sold(), scope,
                buyers -> dao.selectPurchasesOf(activityId.value(), skuId.value(), buyers)));
    }

    /**
     * The units of the range's orders that hold stock: every buyer's at once when asked for (their sum is sold), else
     * their sum and the asked buyers' own orders in the range, so the buyers' units and the sum count the same rows.
     */
    private Held inRange(ActivityId activityId, SkuId skuId, ReservationRange range, PurchaseScope scope) {
        List<String> holding = MysqlSalesFigures.STOCK_HOLDING;
        if (scope.every()) {
            RecordedPurchases every = RecordedPurchases.complete(
                    byBuyer(dao.selectPurchasesIn(skuId.value(), range.from(), range.to(), holding)));
            return new Held(every.units(), every);
        }
        long sold = dao.selectUnitsIn(skuId.value(), range.from(), range.to(), holding);
        return new Held(sold, some(sold, scope, buyers -> dao.selectPurchasesOfIn(activityId.value(), skuId.value(),
                range.from(), range.to(), holding, buyers)));
    }

    /** The units of the buyers {@code scope} names, {@link #CHUNK} buyers a statement, beside their sum. */
    private static RecordedPurchases some(long sold, PurchaseScope scope,
                                          Function<List<String>, List<BuyerUnitsRow>> unitsOf) {
        List<String> buyers = scope.buyers().stream().map(BuyerId::value).sorted().toList();
        return RecordedPurchases.some(sold, scope.buyers(), byBuyer(inChunks(buyers, unitsOf)));
    }

    private static Map<BuyerId, Long> byBuyer(List<BuyerUnitsRow> rows) {
        Map<BuyerId, Long> held = new HashMap<>();
        rows.forEach(row -> held.put(new BuyerId(row.buyerId()), row.units()));
        return held;
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

    /** Sold units and the purchases, as one read or the other finds them. */
    private record Held(long sold, RecordedPurchases purchases) {
    }
}
