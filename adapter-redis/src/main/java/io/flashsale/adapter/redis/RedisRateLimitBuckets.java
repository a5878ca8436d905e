package io.flashsale.adapter.redis;

import io.flashsale.application.port.out.BucketAnswer;
import io.flashsale.application.port.out.BucketKey;
import io.flashsale.application.port.out.BucketLimit;
import io.flashsale.application.port.out.RateLimitBuckets;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Token buckets shared by every instance, kept in Redis by Bucket4j's Lettuce proxy manager (a compare-and-swap
 * script per take). One key per bucket, {@code <prefix><limit>:<subject>}, without a hash tag: the buckets of one
 * sale's buyers spread over a cluster's slots instead of crowding the sale's. A key expires {@code keepAfterFull}
 * after its bucket would be full again, so Redis holds recent callers' buckets only.
 */
public final class RedisRateLimitBuckets implements RateLimitBuckets {

    private static final Duration KEEP_AFTER_FULL = Duration.ofSeconds(5);

    private final ProxyManager<String> buckets;
    private final String prefix;
    private final Map<BucketLimit, BucketConfiguration> configurations = new ConcurrentHashMap<>();

    private RedisRateLimitBuckets(ProxyManager<String> buckets, String prefix) {
        this.buckets = buckets;
        this.prefix = prefix;
    }

    static RedisRateLimitBuckets on(StatefulRedisConnection<String, byte[]> connection, String prefix,
                                    Duration timeout) {
        return new RedisRateLimitBuckets(Bucket4jLettuce.casBasedBuilder(connection)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_FULL))
                .requestTimeout(timeout)
                .build(), prefix);
    }

    static RedisRateLimitBuckets onCluster(StatefulRedisClusterConnection<String, byte[]> connection, String prefix,
                                           Duration timeout) {
        return new RedisRateLimitBuckets(Bucket4jLettuce.casBasedBuilder(connection)
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_FULL))
                .requestTimeout(timeout)
                .build(), prefix);
    }

    @Override
    public BucketAnswer tryTake(BucketKey key, BucketLimit limit) {
        BucketConfiguration configuration = configurations.computeIfAbsent(limit, RedisRateLimitBuckets::configuration);
        ConsumptionProbe probe = buckets.builder()
                .build(prefix + key.limit().label() + ":" + key.subject(), () -> configuration)
                .tryConsumeAndReturnRemaining(1);
        return new BucketAnswer(probe.isConsumed(), probe.getRemainingTokens(),
                Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    static BucketConfiguration configuration(BucketLimit limit) {
        return BucketConfiguration.builder()
                .addLimit(Bandwidth.builder().capacity(limit.capacity())
                        .refillGreedy(limit.refillTokens(), limit.refillPeriod()).build())
                .build();
    }
}
