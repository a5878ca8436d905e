package io.flashsale.application.port.in;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;

public interface GetStockUseCase {

    /**
     * The ledgers as the hot store holds them.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws ActivityNotReadyException when it is not warmed up
     */
    List<SkuStock> stock(ActivityId activityId);
}
