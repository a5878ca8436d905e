package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

public interface ReconcileSkuUseCase {

    /**
     * {@link ReconcileActivityUseCase#reconcile} for one SKU.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws SkuNotFoundException      when the activity has no such SKU
     * @throws ActivityArchivedException when the sale was archived
     * @throws ActivityNotReadyException when the hot store does not hold the activity and its sale is not open
     */
    ReconciliationReport reconcile(ActivityId activityId, SkuId skuId);
}
