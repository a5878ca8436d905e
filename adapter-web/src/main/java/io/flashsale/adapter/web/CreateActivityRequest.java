package io.flashsale.adapter.web;

import io.flashsale.application.sale.model.CreateActivityCommand;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlices;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Body of {@code POST /api/v1/activities}; cross-field rules (window, repeated SKUs) are the domain's. {@code slices}
 * (1 to 64, default 1) cuts the sale into slices, each its own Redis hash slot holding a share of every SKU (ADR 109).
 */
public record CreateActivityRequest(
        @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String id,
        @NotBlank @Size(max = Activity.MAX_NAME_LENGTH) String name,
        @NotNull Instant startsAt,
        @NotNull Instant endsAt,
        @Min(1) @Max(PurchaseLimit.MAX) Integer perUserLimit,
        @Min(value = 1, message = PAYMENT_TIMEOUT_MESSAGE) @Max(value = MAX_PAYMENT_TIMEOUT_SECONDS,
                message = PAYMENT_TIMEOUT_MESSAGE) Long paymentTimeoutSeconds,
        @NotNull @Size(min = 1, max = Activity.MAX_ITEMS) List<@NotNull @Valid ActivityItemRequest> items,
        @Min(1) @Max(SaleSlices.MAX) Integer slices) {

    /** A year: any sensible payment window fits, and every deadline stays far inside the database's date range. */
    public static final long MAX_PAYMENT_TIMEOUT_SECONDS = 31_536_000;
    static final String PAYMENT_TIMEOUT_MESSAGE = "must be between 1 and " + MAX_PAYMENT_TIMEOUT_SECONDS
            + " seconds (365 days); default 900";

    CreateActivityCommand toCommand() {
        return new CreateActivityCommand(
                id == null ? null : new ActivityId(id),
                name,
                startsAt,
                endsAt,
                perUserLimit == null ? null : new PurchaseLimit(perUserLimit),
                paymentTimeoutSeconds == null ? null : Duration.ofSeconds(paymentTimeoutSeconds),
                items.stream().map(ActivityItemRequest::toItem).toList(),
                slices == null ? null : new SaleSlices(slices));
    }
}
