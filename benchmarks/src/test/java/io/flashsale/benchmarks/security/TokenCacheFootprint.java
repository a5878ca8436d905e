package io.flashsale.benchmarks.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.flashsale.adapter.web.security.VerifiedTokens;
import io.flashsale.adapter.web.security.VerifiedTokens.Verified;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.testsupport.TestBuyerTokens;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Heap bytes per remembered buyer token (ADR 0088): the live heap after a full collection, with {@code count} tokens
 * remembered, less the heap before, divided by {@code count}. Keyed as the service keys them (by the token's SHA-256)
 * and, for comparison, by the token itself. Each entry holds its own buyer name, as a decoded token's claim is.
 * Run: see docs/performance.md, "Buyer tokens".
 */
public final class TokenCacheFootprint {

    private TokenCacheFootprint() {
    }

    public static void main(String[] args) {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        String template = TestBuyerTokens.newEc().forBuyer("buyer-0000001");
        String[] tokens = new String[count];
        for (int i = 0; i < count; i++) {
            tokens[i] = template.substring(0, template.length() - 12) + String.format("%012d", i);
        }
        Instant expiresAt = Instant.now().plus(Duration.ofHours(1));
        System.out.printf("token length %d characters, %d tokens%n", template.length(), count);

        long before = liveHeap();
        VerifiedTokens byDigest = new VerifiedTokens(count, Clock.systemUTC(), Duration.ofSeconds(30));
        for (int i = 0; i < count; i++) {
            byDigest.remember(tokens[i], verified(i, expiresAt));
        }
        long digestBytes = liveHeap() - before;
        System.out.printf("by digest: %d bytes per token (%s)%n", digestBytes / count, byDigest.get(tokens[0]));
        byDigest = null;

        before = liveHeap();
        Cache<String, Verified> byToken = Caffeine.newBuilder().maximumSize(count)
                .expireAfter(Expiry.<String, Verified>creating((token, entry) ->
                        Duration.between(Instant.now(), entry.expiresAt())))
                .build();
        for (int i = 0; i < count; i++) {
            // A copy: the service's cache holds the token string the request carried, not one shared with this array.
            byToken.put(new String(tokens[i].toCharArray()), verified(i, expiresAt));
        }
        long tokenBytes = liveHeap() - before;
        System.out.printf("by token: %d bytes per token (%s)%n", tokenBytes / count,
                byToken.getIfPresent(tokens[0]));
    }

    private static Verified verified(int i, Instant expiresAt) {
        return new Verified(new BuyerId("buyer-" + i), Instant.ofEpochSecond(expiresAt.getEpochSecond()));
    }

    private static long liveHeap() {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
