package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.domain.reservation.BucketLimit;
import io.lettuce.core.RedisConnectionException;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Connects the shared buckets on first use, so the service starts while Redis is down (issue 12). While Redis cannot
 * be reached a take fails at once, and a new connection is tried at most every {@link #RETRY_AFTER_FAILURE}: the
 * admission lets such attempts through rather than waiting on a connect timeout per request.
 */
final class LazyRateLimitBuckets implements RateLimitBucketsPort {

    static final Duration RETRY_AFTER_FAILURE = Duration.ofMillis(500);

    private final Supplier<RateLimitBucketsPort> connect;
    private volatile RateLimitBucketsPort connected;
    private boolean failedBefore;
    private long retryAtNanos;

    LazyRateLimitBuckets(Supplier<RateLimitBucketsPort> connect) {
        this.connect = connect;
    }

    @Override
    public BucketAnswer tryTake(BucketKey key, BucketLimit limit) {
        return buckets().tryTake(key, limit);
    }

    private RateLimitBucketsPort buckets() {
        RateLimitBucketsPort now = connected;
        if (now != null) {
            return now;
        }
        synchronized (this) {
            if (connected == null) {
                if (failedBefore && System.nanoTime() - retryAtNanos < 0) {
                    throw new RedisConnectionException("rate-limit buckets: Redis was unreachable moments ago");
                }
                try {
                    connected = connect.get();
                } catch (RuntimeException unreachable) {
                    failedBefore = true;
                    retryAtNanos = System.nanoTime() + RETRY_AFTER_FAILURE.toNanos();
                    throw unreachable;
                }
            }
            return connected;
        }
    }
}
