package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockAdjustment;

import java.util.Optional;

/** What an audited stock adjustment came to. */
public sealed interface StockAdjustmentResult {

    /**
     * The database of record applied and recorded it.
     *
     * @param hotStore what the hot store did with it; a refusal there is repaired from the database by {@code report}
     * @param report   the reconciliation of the SKU that followed; null when the hot store does not hold the sale
     */
    record Adjusted(StockAdjustment adjustment, LedgerAdjustment hotStore, ReconciliationReport report)
            implements StockAdjustmentResult {

        public Optional<ReconciliationReport> reconciliation() {
            return Optional.ofNullable(report);
        }
    }

    /** Refused, nothing changed anywhere: the total would fall below the units already sold. */
    record BelowSold(long stock, long sold) implements StockAdjustmentResult {
    }

    /** Refused, nothing changed anywhere: the total would pass the largest an item may have. */
    record AboveMaximum(long stock) implements StockAdjustmentResult {
    }
}
