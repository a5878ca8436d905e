package io.flashsale.adapter.web;

import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.domain.stock.LedgerAdjustment;

/**
 * An applied adjustment, what Redis did with it, and the reconciliation of the SKU that followed (null when Redis
 * does not hold the sale: it takes the new total when it is loaded).
 */
public record StockAdjustedResponse(StockAdjustmentResponse adjustment, String hotStore,
                                    ReconciliationReportResponse report) {

    static StockAdjustedResponse of(StockAdjustmentResult.Adjusted adjusted) {
        return new StockAdjustedResponse(StockAdjustmentResponse.of(adjusted.adjustment()),
                hotStore(adjusted.hotStore()),
                adjusted.reconciliation().map(ReconciliationReportResponse::of).orElse(null));
    }

    static String hotStore(LedgerAdjustment hotStore) {
        return switch (hotStore) {
            case LedgerAdjustment.Applied ignored -> "APPLIED";
            case LedgerAdjustment.AlreadyApplied ignored -> "ALREADY_APPLIED";
            case LedgerAdjustment.Refused ignored -> "REFUSED";
            case LedgerAdjustment.UnknownSku ignored -> "UNKNOWN_SKU";
            case LedgerAdjustment.NotLoaded ignored -> "NOT_LOADED";
        };
    }
}
