package io.flashsale.adapter.web.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;

/**
 * Wrong admin tokens per client address, in this instance's memory: a Bucket4j bucket of {@code allowed} failures that
 * refills over {@code window}; an empty one turns the client away until a failure is allowed again. Every failure
 * counts in {@code flashsale.admin.failures{surface}}, every turned-away attempt in {@code flashsale.admin.blocked}.
 */
public final class FailedAdminAttempts implements AdminAttempts {

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(30))
            .maximumSize(100_000)
            .build();
    private final long allowed;
    private final Duration window;
    private final MeterRegistry meters;
    private final Counter blocked;

    public FailedAdminAttempts(long allowed, Duration window, MeterRegistry meters) {
        this.allowed = allowed;
        this.window = window;
        this.meters = meters;
        this.blocked = meters.counter("flashsale.admin.blocked");
    }

    @Override
    public Duration blockedFor(String client) {
        Bucket bucket = buckets.getIfPresent(key(client));
        if (bucket == null || bucket.getAvailableTokens() > 0) {
            return Duration.ZERO;
        }
        blocked.increment();
        return Duration.ofNanos(Math.max(1, bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill()));
    }

    @Override
    public void failed(String client, String surface) {
        meters.counter("flashsale.admin.failures", "surface", surface).increment();
        buckets.get(key(client), any -> Bucket.builder()
                .addLimit(bandwidth -> bandwidth.capacity(allowed).refillGreedy(allowed, window))
                .build()).tryConsume(1);
    }

    private static String key(String client) {
        return client == null ? "" : client;
    }
}
