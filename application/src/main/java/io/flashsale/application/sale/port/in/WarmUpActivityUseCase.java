package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;

public interface WarmUpActivityUseCase {

    /**
     * Loads the activity's stock into the hot store. Idempotent: a warmed-up ledger is never reset.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws ActivityArchivedException when the sale was archived: it is never loaded again
     */
    List<SkuStock> warmUp(ActivityId activityId);
}
