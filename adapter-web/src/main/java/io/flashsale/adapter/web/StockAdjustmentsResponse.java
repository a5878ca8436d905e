package io.flashsale.adapter.web;

import java.util.List;

/** Every audited stock adjustment of the activity, oldest first. */
public record StockAdjustmentsResponse(String activityId, List<StockAdjustmentResponse> adjustments) {
}
