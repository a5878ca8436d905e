package io.flashsale.application.slice.port.in;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.StockTransfer;

/** Moves units of one SKU from one slice of a sale to another (ADR 109). */
public interface TransferStockUseCase {

    /**
     * Records the transfer, takes what the source has available up to {@code units}, and credits the target with what
     * was taken. A step that cannot be taken now (a slice not loaded, Redis down) leaves the transfer unfinished for
     * {@link FinishTransfersUseCase}; no unit is lost or doubled either way.
     *
     * @return the transfer as far as it got
     * @throws io.flashsale.domain.shared.InvalidValueException when a slice is not one of the sale's, the two are the
     *                                                          same, or units is out of range
     * @throws io.flashsale.application.sale.model.ActivityNotFoundException     when there is no such sale
     * @throws io.flashsale.application.reconciliation.model.SkuNotFoundException when the sale has no such SKU
     * @throws io.flashsale.application.sale.model.ActivityArchivedException     when the sale was archived
     */
    StockTransfer transfer(ActivityId activityId, SkuId skuId, int from, int to, long units);
}
