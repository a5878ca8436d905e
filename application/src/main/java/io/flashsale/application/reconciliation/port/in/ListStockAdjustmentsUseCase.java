package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.StockAdjustment;

import java.util.List;

public interface ListStockAdjustmentsUseCase {

    /**
     * Every audited stock adjustment of the activity, oldest first.
     *
     * @throws ActivityNotFoundException when there is no such activity
     */
    List<StockAdjustment> list(ActivityId activityId);
}
