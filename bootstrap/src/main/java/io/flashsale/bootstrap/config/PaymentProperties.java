package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * @param buyerConfirms      whether {@code POST /api/v1/reservations/{id}/payment} pays on the buyer's word (demo and
 *                           tests only); off, only the provider's signed notification pays
 * @param notificationSecret the secret the payment provider signs notifications with
 *                           ({@code FLASHSALE_PAYMENT_NOTIFICATION_SECRET}); absent, notifications are refused
 * @param signatureTolerance how far a notification's signed timestamp may be from this instance's clock
 */
@ConfigurationProperties("flashsale.payment")
public record PaymentProperties(@DefaultValue("false") boolean buyerConfirms, String notificationSecret,
                                @DefaultValue("5m") Duration signatureTolerance) {

    public PaymentProperties {
        PositiveDurations.require("flashsale.payment.signature-tolerance", signatureTolerance);
    }

    boolean hasNotificationSecret() {
        return notificationSecret != null && !notificationSecret.isBlank();
    }

    @Override
    public String toString() {
        return "PaymentProperties[buyerConfirms=" + buyerConfirms + ", notificationSecret="
                + (hasNotificationSecret() ? "****" : "none") + ", signatureTolerance=" + signatureTolerance + "]";
    }
}
