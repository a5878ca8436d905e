package io.flashsale.acceptance.api;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;

/**
 * The payment provider as the shop hears from it: a notification of a payment it took, signed with the secret the two
 * share ({@code Flashsale-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">}), written here from the
 * documented scheme rather than with the service's own code.
 */
public final class PaymentProvider {

    public static final String NOTIFICATIONS = "/api/v1/payments/notifications";
    public static final String SIGNATURE_HEADER = "Flashsale-Signature";

    private final String secret;
    private final Clock clock;

    /** @param clock the provider's time; the service's, so that a scenario that moves it keeps both in step */
    public PaymentProvider(String secret, Clock clock) {
        this.secret = secret;
        this.clock = clock;
    }

    /** The provider's word that it took the payment {@code paymentReference} for the reservation. */
    public ApiCall confirms(String reservationId, String paymentReference) {
        Instant now = clock.instant();
        String body = "{\"reservationId\":\"" + reservationId + "\",\"paymentReference\":\"" + paymentReference
                + "\",\"paidAt\":\"" + now + "\"}";
        long timestamp = now.getEpochSecond();
        return ApiCall.post(NOTIFICATIONS, body)
                .withHeader(SIGNATURE_HEADER, "t=" + timestamp + ",v1=" + hmac(timestamp + "." + body));
    }

    private String hmac(String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
