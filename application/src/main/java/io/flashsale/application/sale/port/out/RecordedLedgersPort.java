package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;
import java.util.Optional;

/** A sale's ledgers as the database of record keeps them: an archived sale's figures, and what a lost one sold. */
public interface RecordedLedgersPort {

    /**
     * The ledgers as the database of record keeps them, in item order: the item's stock as total, the units of
     * placed orders as sold, nothing reserved. Empty when there is no such activity.
     */
    Optional<List<SkuStock>> recordedStock(ActivityId activityId);
}
