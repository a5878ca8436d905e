package io.flashsale.application.port.in;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;

public interface WarmUpActivityUseCase {

    /**
     * Loads the activity's stock into the hot store. Idempotent: a warmed-up ledger is never reset.
     *
     * @throws ActivityNotFoundException when there is no such activity
     */
    List<SkuStock> warmUp(ActivityId activityId);
}
