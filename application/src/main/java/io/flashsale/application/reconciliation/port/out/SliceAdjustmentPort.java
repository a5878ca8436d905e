package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.LedgerAdjustment;

/**
 * The hot store's side of an audited stock adjustment of a sale in slices (ADR 112): each slice's part of it applied
 * once to that slice's ledger, in one atomic step on the slice's slot.
 */
public interface SliceAdjustmentPort {

    /**
     * As {@link HotStoreAdjustmentPort#adjust}, on the slice's ledger of the SKU: total and available move by
     * {@code part} (0 marks the adjustment applied and moves nothing), refused when fewer units are available than a
     * reduction takes. Applied at most once per adjustment and slice.
     */
    LedgerAdjustment adjust(SaleSlice slice, SkuId skuId, long part, long adjustmentId);
}
