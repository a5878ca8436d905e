package io.flashsale.application.port.in;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;

public interface AdjustStockUseCase {

    /**
     * Changes a SKU's total by {@code delta}: first in the database of record (never below the units sold; the
     * adjustment row is appended in the same transaction), then in the hot store (never making available negative),
     * then the SKU is reconciled, which repairs the hot store if it refused. No other path changes a total.
     *
     * @throws io.flashsale.domain.shared.InvalidValueException when delta is 0 or out of range, or reason or operator
     *                                                          is blank or too long
     * @throws ActivityNotFoundException when there is no such activity
     * @throws SkuNotFoundException      when the activity has no such SKU
     * @throws ActivityArchivedException when the sale was archived
     */
    StockAdjustmentResult adjust(ActivityId activityId, SkuId skuId, long delta, String reason, String operator);
}
