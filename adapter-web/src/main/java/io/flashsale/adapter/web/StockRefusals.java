package io.flashsale.adapter.web;

import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

/** The database of record's refusals of a stock adjustment, as problems; nothing changed. */
final class StockRefusals {

    private StockRefusals() {
    }

    static ResponseEntity<ProblemDetail> belowSold(StockAdjustmentResult.BelowSold below) {
        ProblemDetail problem = Problems.of(ProblemCode.STOCK_BELOW_SOLD,
                "the total would fall below the units already sold");
        problem.setProperty("stock", below.stock());
        problem.setProperty("sold", below.sold());
        return Problems.response(problem);
    }

    static ResponseEntity<ProblemDetail> aboveMaximum(StockAdjustmentResult.AboveMaximum above) {
        ProblemDetail problem = Problems.of(ProblemCode.STOCK_ABOVE_MAXIMUM,
                "the total would pass the largest an item may have");
        problem.setProperty("stock", above.stock());
        return Problems.response(problem);
    }
}
