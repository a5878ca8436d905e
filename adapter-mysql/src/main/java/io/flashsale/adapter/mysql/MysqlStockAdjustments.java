package io.flashsale.adapter.mysql;

import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.StockAdjustment;
import org.springframework.transaction.support.TransactionOperations;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * Audited stock adjustments in MySQL. One transaction locks the item row (the row the order transactions' conditional
 * sold update locks too, so an adjustment and an order never interleave), changes the stock only while it stays at or
 * above sold, and appends the adjustment row with the figures it saw. Nothing here updates or deletes an adjustment.
 */
public class MysqlStockAdjustments implements StockAdjustmentsPort {

    private final StockAdjustmentDao dao;
    private final TransactionOperations transactions;

    MysqlStockAdjustments(StockAdjustmentDao dao, TransactionOperations transactions) {
        this.dao = dao;
        this.transactions = transactions;
    }

    @Override
    public AdjustmentRecording record(ActivityId activityId, SkuId skuId, long delta, String operator, String reason,
                                      Instant at) {
        StockAdjustment.requireDelta(delta);
        StockAdjustment.requireOperator(operator);
        StockAdjustment.requireReason(reason);
        return transactions.execute(status -> recordInTransaction(activityId, skuId, delta, operator, reason, at));
    }

    /** {@link #record}'s work inside the caller's transaction: an approval records its adjustment in its own. */
    AdjustmentRecording recordInTransaction(ActivityId activityId, SkuId skuId, long delta, String operator,
                                            String reason, Instant at) {
        Instant createdAt = at.truncatedTo(ChronoUnit.MILLIS);
        ItemStockRow item = dao.selectItemForUpdate(activityId.value(), skuId.value());
        if (item == null) {
            return new AdjustmentRecording.UnknownSku();
        }
        if (item.stock() + delta < item.sold()) {
            return new AdjustmentRecording.BelowSold(item.stock(), item.sold());
        }
        if (item.stock() + delta > ActivityItem.MAX_STOCK) {
            return new AdjustmentRecording.AboveMaximum(item.stock());
        }
        if (dao.addToStock(activityId.value(), skuId.value(), delta, ActivityItem.MAX_STOCK) != 1) {
            throw new IllegalStateException("item " + activityId + "/" + skuId + " was locked at stock "
                    + item.stock() + " and sold " + item.sold() + ", yet refused " + delta);
        }
        StockAdjustmentRow row = new StockAdjustmentRow(0, activityId.value(), skuId.value(), delta, item.stock(),
                item.stock() + delta, item.sold(), operator, reason, createdAt);
        dao.insertAdjustment(row);
        return new AdjustmentRecording.Recorded(toAdjustment(dao.selectLastInsertId(), row));
    }

    @Override
    public List<StockAdjustment> findByActivity(ActivityId activityId) {
        return dao.selectByActivity(activityId.value()).stream().map(row -> toAdjustment(row.id(), row)).toList();
    }

    private static StockAdjustment toAdjustment(long id, StockAdjustmentRow row) {
        return new StockAdjustment(id, new ActivityId(row.activityId()), new SkuId(row.skuId()), row.delta(),
                row.stockBefore(), row.stockAfter(), row.soldAtTheTime(), row.operator(), row.reason(), row.createdAt());
    }
}
