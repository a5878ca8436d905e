package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the database of record says about one activity, for reconciliation and for tests that check the
 * books balance: per SKU sold = net stock flow = units in orders that hold stock. Every SKU of the activity
 * appears in the per-SKU figures, in SKU order, with 0 when nothing moved; an unknown activity gives empty maps.
 */
public class MysqlSalesFigures {

    /** The statuses that hold stock; a stored order is only ever ORDERED or PAID of them (never RESERVED). */
    static final List<String> STOCK_HOLDING = Arrays.stream(ReservationStatus.values())
            .filter(ReservationStatus::holdsStock).map(Enum::name).toList();

    private final SalesFiguresDao dao;

    MysqlSalesFigures(SalesFiguresDao dao) {
        this.dao = dao;
    }

    /** {@code activity_item.sold}: the units the conditional stock update has taken. */
    public Map<SkuId, Long> soldBySku(ActivityId activityId) {
        return bySku(dao.selectSold(activityId.value()));
    }

    /** The stock flow summed per SKU: SALE units minus RESTORE units. */
    public Map<SkuId, Long> stockFlowBySku(ActivityId activityId) {
        return bySku(dao.selectStockFlow(activityId.value()));
    }

    /** Units in the lines of orders whose status still holds stock (ORDERED, PAID). */
    public Map<SkuId, Long> orderedUnitsBySku(ActivityId activityId) {
        return bySku(dao.selectOrderedUnits(activityId.value(), STOCK_HOLDING));
    }

    /** How many orders the activity has per status; statuses without orders are absent. */
    public Map<ReservationStatus, Long> orderCountByStatus(ActivityId activityId) {
        Map<ReservationStatus, Long> counts = new EnumMap<>(ReservationStatus.class);
        for (StatusCountRow row : dao.selectOrderCounts(activityId.value())) {
            counts.put(ReservationStatus.valueOf(row.status()), row.orders());
        }
        return counts;
    }

    private static Map<SkuId, Long> bySku(List<SkuUnitsRow> rows) {
        Map<SkuId, Long> units = new LinkedHashMap<>();
        for (SkuUnitsRow row : rows) {
            units.put(new SkuId(row.skuId()), row.units());
        }
        return units;
    }
}
