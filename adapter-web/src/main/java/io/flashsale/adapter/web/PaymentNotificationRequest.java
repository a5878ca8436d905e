package io.flashsale.adapter.web;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import java.time.Instant;

/**
 * Body of {@code POST /api/v1/payments/notifications}, the payment provider's word that it took a payment.
 *
 * @param paymentReference the provider's id of the payment; one payment pays one order once
 * @param paidAt           when the provider took it (ISO-8601 UTC); recorded, the deadline is judged on arrival
 */
public record PaymentNotificationRequest(
        @NotNull String reservationId,
        @NotNull @Pattern(regexp = ApiIds.PATTERN, message = ApiIds.MESSAGE) String paymentReference,
        @NotNull Instant paidAt) {
}
