package io.flashsale.adapter.web.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.flashsale.domain.reservation.BuyerId;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Bearer tokens whose signature was verified, so that a buyer's every attempt costs a digest and a map look-up instead
 * of a signature check (ADR 0088). Keyed by the SHA-256 of the whole token (a signature alone would let its payload be
 * swapped): the cache holds 32 bytes per token instead of the token, and no bearer token a memory dump could replay.
 * Bounded by size, and each entry leaves at its token's expiry; {@link JwtBuyerAuthenticator} still checks the expiry
 * on every use.
 */
public final class VerifiedTokens {

    /** What a verified token proved: its buyer, until when, and the device it names (null: none, or not asked). */
    public record Verified(BuyerId buyer, Instant expiresAt, String device) {

        public Verified(BuyerId buyer, Instant expiresAt) {
            this(buyer, expiresAt, null);
        }
    }

    /** The SHA-256 of a token, as four longs: a second token with the same key is not to be found. */
    record TokenDigest(long first, long second, long third, long fourth) {

        static TokenDigest of(String token) {
            ByteBuffer digest = ByteBuffer.wrap(sha256().digest(token.getBytes(StandardCharsets.US_ASCII)));
            return new TokenDigest(digest.getLong(), digest.getLong(), digest.getLong(), digest.getLong());
        }

        private static MessageDigest sha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
        }
    }

    private final Cache<TokenDigest, Verified> verified;

    /** @param leeway how long after its expiry a token is still taken (the clock skew allowed) */
    public VerifiedTokens(long maximumSize, Clock clock, Duration leeway) {
        this(maximumSize, clock, leeway, Ticker.systemTicker());
    }

    /** @param ticker how the cache tells time passing (a test moves it with its clock) */
    VerifiedTokens(long maximumSize, Clock clock, Duration leeway, Ticker ticker) {
        this.verified = Caffeine.newBuilder()
                .maximumSize(maximumSize)
                .ticker(ticker)
                .expireAfter(Expiry.<TokenDigest, Verified>creating(
                        (token, entry) -> Duration.between(clock.instant(), entry.expiresAt().plus(leeway))))
                .build();
    }

    /** The token's verification, or null when it was not verified (or has left). */
    public Verified get(String token) {
        return get(TokenDigest.of(token));
    }

    public void remember(String token, Verified verification) {
        remember(TokenDigest.of(token), verification);
    }

    /** By a digest already taken, so that a miss followed by its verification digests the token once. */
    Verified get(TokenDigest digest) {
        return verified.getIfPresent(digest);
    }

    void remember(TokenDigest digest, Verified verification) {
        verified.put(digest, verification);
    }

    long size() {
        verified.cleanUp();
        return verified.estimatedSize();
    }
}
