package io.flashsale.adapter.web.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.flashsale.domain.reservation.BuyerId;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Bearer tokens whose signature was verified, so that a buyer's every attempt costs a map look-up instead of a
 * signature check. Keyed by the whole token (a signature alone would let its payload be swapped), bounded, and each
 * entry leaves at its token's expiry; {@link JwtBuyerAuthenticator} still checks the expiry on every use.
 */
public final class VerifiedTokens {

    /** What a verified token proved: its buyer, until when, and the device it names (null: none, or not asked). */
    public record Verified(BuyerId buyer, Instant expiresAt, String device) {

        public Verified(BuyerId buyer, Instant expiresAt) {
            this(buyer, expiresAt, null);
        }
    }

    private final Cache<String, Verified> verified;

    /** @param leeway how long after its expiry a token is still taken (the clock skew allowed) */
    public VerifiedTokens(long maximumSize, Clock clock, Duration leeway) {
        this.verified = Caffeine.newBuilder()
                .maximumSize(maximumSize)
                .expireAfter(Expiry.<String, Verified>creating(
                        (token, entry) -> Duration.between(clock.instant(), entry.expiresAt().plus(leeway))))
                .build();
    }

    /** The token's verification, or null when it was not verified (or has left). */
    public Verified get(String token) {
        return verified.getIfPresent(token);
    }

    public void remember(String token, Verified verification) {
        verified.put(token, verification);
    }

    long size() {
        verified.cleanUp();
        return verified.estimatedSize();
    }
}
