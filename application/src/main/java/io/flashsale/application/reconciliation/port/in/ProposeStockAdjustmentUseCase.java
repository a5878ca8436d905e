package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.AdjustmentProposal;

public interface ProposeStockAdjustmentUseCase {

    /**
     * Proposes changing a SKU's total by {@code delta}. Nothing changes until a different operator approves it, before
     * it expires (ADR 84).
     *
     * @param operator the authenticated operator proposing it
     * @throws io.flashsale.domain.shared.InvalidValueException when delta is 0 or out of range, or reason or operator
     *                                                          is blank or too long
     * @throws ActivityNotFoundException when there is no such activity
     * @throws SkuNotFoundException      when the activity has no such SKU
     * @throws ActivityArchivedException when the sale was archived
     */
    AdjustmentProposal propose(ActivityId activityId, SkuId skuId, long delta, String reason, String operator);
}
