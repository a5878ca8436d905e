package io.flashsale.adapter.web;

import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

/** One SKU of a new sale; {@code segments} defaults to 1, {@code perUserLimit} to the activity's. */
public record ActivityItemRequest(
        @NotNull @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String skuId,
        @NotNull @Min(0) @Max(ActivityItem.MAX_STOCK) Long stock,
        @Min(1) @Max(PurchaseLimit.MAX) Integer perUserLimit,
        @Min(1) @Max(ActivityItem.MAX_SEGMENTS) Integer segments) {

    ActivityItem toItem() {
        return new ActivityItem(new SkuId(skuId), stock, perUserLimit, segments == null ? 1 : segments);
    }
}
