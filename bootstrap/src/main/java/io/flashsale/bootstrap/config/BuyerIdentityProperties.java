package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How a buyer call says who the buyer is (ADR 76).
 *
 * @param buyerAuth      {@code jwt} (the default, ADR 80): a bearer token verified with the
 *                       {@code spring.security.oauth2.resourceserver.jwt.*} key; {@code trusted-header}, only when set:
 *                       the {@code X-User-Id} header as sent, only behind a gateway that strips and sets it
 * @param buyerClaim     the token claim that names the buyer
 * @param clockSkew      how far the token's {@code exp}/{@code nbf} may be off this machine's clock
 * @param tokenCacheSize how many verified tokens are remembered (each until it expires, about 300 bytes each: ADR 88)
 * @param gatewaySecret  with {@code trusted-header}: when set, a buyer call must carry it in {@code X-Gateway-Secret}
 */
@ConfigurationProperties("flashsale.security")
public record BuyerIdentityProperties(@DefaultValue("jwt") BuyerAuth buyerAuth,
                                      @DefaultValue("sub") String buyerClaim,
                                      @DefaultValue("30s") Duration clockSkew,
                                      @DefaultValue("250000") long tokenCacheSize,
                                      String gatewaySecret) {

    public BuyerIdentityProperties {
        if (clockSkew.isNegative()) {
            throw new IllegalArgumentException("flashsale.security.clock-skew must not be negative");
        }
        if (tokenCacheSize < 0) {
            throw new IllegalArgumentException("flashsale.security.token-cache-size must not be negative");
        }
        if (buyerClaim == null || buyerClaim.isBlank()) {
            throw new IllegalArgumentException("flashsale.security.buyer-claim must name a claim");
        }
    }

    public enum BuyerAuth { JWT, TRUSTED_HEADER }

    @Override
    public String toString() {
        return "BuyerIdentityProperties[buyerAuth=" + buyerAuth + ", buyerClaim=" + buyerClaim + ", clockSkew="
                + clockSkew + ", tokenCacheSize=" + tokenCacheSize + ", gatewaySecret=****]";
    }
}
