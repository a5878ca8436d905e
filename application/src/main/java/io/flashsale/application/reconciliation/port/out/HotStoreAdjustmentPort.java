package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.LedgerAdjustment;

/**
 * The hot store's side of an audited stock adjustment: the database of record recorded it first, then the hot store
 * applies it once, in one atomic step.
 */
public interface HotStoreAdjustmentPort {

    /**
     * Applies the audited stock adjustment {@code adjustmentId} to the SKU once: total and available move by
     * {@code delta}, refused when fewer units are available than a reduction takes. Never partly applied.
     */
    LedgerAdjustment adjust(ActivityId activityId, SkuId skuId, long delta, long adjustmentId);
}
