package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.stock.StockAdjustment;

/** What the database of record did with a requested stock adjustment; every refusal changes nothing. */
public sealed interface AdjustmentRecording {

    /** The total changed and the adjustment row was appended, in one transaction. */
    record Recorded(StockAdjustment adjustment) implements AdjustmentRecording {
    }

    /** Refused: the new total would fall below the units already sold. */
    record BelowSold(long stock, long sold) implements AdjustmentRecording {
    }

    /** Refused: the new total would pass the largest total an item may have. */
    record AboveMaximum(long stock) implements AdjustmentRecording {
    }

    /** Refused: the activity has no such SKU. */
    record UnknownSku() implements AdjustmentRecording {
    }
}
