package io.flashsale.adapter.redis.local;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.domain.reservation.BucketLimit;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;

import java.time.Duration;

/**
 * Token buckets of this instance only (Bucket4j's lock-free local buckets), for limits where one instance's share is
 * enough: a sale's admission, and the buyer's bucket on the database path while Redis is down; the shared limits are
 * {@code RedisRateLimitBuckets}. Buckets not used for ten minutes are forgotten (a full bucket is made again).
 */
public final class LocalRateLimitBuckets implements RateLimitBucketsPort {

    private final Cache<BucketKey, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10))
            .maximumSize(100_000)
            .build();

    @Override
    public BucketAnswer tryTake(BucketKey key, BucketLimit limit) {
        ConsumptionProbe probe = buckets.get(key, any -> bucket(limit)).tryConsumeAndReturnRemaining(1);
        return new BucketAnswer(probe.isConsumed(), probe.getRemainingTokens(),
                Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    @Override
    public void giveBack(BucketKey key, BucketLimit limit) {
        Bucket bucket = buckets.getIfPresent(key);
        if (bucket != null) {
            bucket.addTokens(1);
        }
    }

    private static Bucket bucket(BucketLimit limit) {
        return Bucket.builder()
                .addLimit(bandwidth -> bandwidth.capacity(limit.capacity())
                        .refillGreedy(limit.refillTokens(), limit.refillPeriod()))
                .build();
    }
}
