package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.ActivityId;

public interface ReconcileActivityUseCase {

    /**
     * Compares every SKU of the activity in the hot store with the database of record, repairs the hot store where it
     * drifted and it is safe, and reports each SKU. An open sale the hot store lost is rebuilt first.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws ActivityArchivedException when the sale was archived: the hot store holds nothing of it
     */
    ActivityReconciliation reconcile(ActivityId activityId);
}
