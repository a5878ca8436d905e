package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.NoRepairAwaitingApprovalException;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

/** An operator's approval of a repair the automatic reconciliation held back (ADR 85). */
public interface ApproveRepairUseCase {

    /**
     * Reconciles the SKU afresh and repairs whatever residual is found now from the database of record, whatever its
     * size; closes the SKU's open NEEDS_REVIEW reports in the operator's name unless the repair had to be deferred
     * (the SKU kept moving), which leaves them open for another approval.
     *
     * @param operator who approved, as the admin authentication names them
     * @return the report of the approved run, kept whatever it found (REPAIRED, NONE when nothing was left, DEFERRED)
     * @throws NoRepairAwaitingApprovalException when no NEEDS_REVIEW report of the SKU is open
     * @throws ActivityNotFoundException         when there is no such activity
     * @throws SkuNotFoundException              when the activity has no such SKU
     * @throws ActivityArchivedException         when the sale was archived
     * @throws ActivityNotReadyException         when the hot store does not hold the activity
     */
    ReconciliationReport approveRepair(ActivityId activityId, SkuId skuId, String operator);
}
