package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;

public interface GetStockUseCase {

    /**
     * The ledgers as the hot store holds them; once the activity is archived, as the database of record keeps them.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws ActivityNotReadyException when it is neither warmed up nor archived
     */
    List<SkuStock> stock(ActivityId activityId);
}
