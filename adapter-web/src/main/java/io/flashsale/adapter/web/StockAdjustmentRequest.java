package io.flashsale.adapter.web;

import io.flashsale.domain.stock.StockAdjustment;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** A change of one SKU's total by {@code delta} units (non-zero), with the reason an auditor will read. */
public record StockAdjustmentRequest(
        @NotNull @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String skuId,
        @NotNull @Min(-MAX_DELTA) @Max(MAX_DELTA) Long delta,
        @NotNull @Pattern(regexp = REASON_PATTERN, message = REASON_MESSAGE) String reason) {

    static final long MAX_DELTA = 1_000_000_000L;
    static final String REASON_PATTERN = "[^\\p{Cntrl}]{1," + StockAdjustment.MAX_REASON_LENGTH + "}";
    static final String REASON_MESSAGE = "must be 1-" + StockAdjustment.MAX_REASON_LENGTH
            + " characters without control characters";
}
