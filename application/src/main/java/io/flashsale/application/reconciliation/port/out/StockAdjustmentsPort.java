package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.StockAdjustment;

import java.time.Instant;
import java.util.List;

/** The audited stock adjustments in the database of record: the only path that changes a SKU's total. Append-only. */
public interface StockAdjustmentsPort {

    /**
     * In one transaction: {@code stock = stock + delta} unless that falls below sold (or passes the maximum), and one
     * appended adjustment row with the stock before and after, the units sold at that moment, operator and reason.
     */
    AdjustmentRecording record(ActivityId activityId, SkuId skuId, long delta, String operator, String reason,
                               Instant at);

    /** Every adjustment of the activity, oldest first. */
    List<StockAdjustment> findByActivity(ActivityId activityId);
}
