package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.BucketArguments;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.reservation.port.out.BucketAnswer;
import io.flashsale.application.reservation.port.out.BucketKey;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.domain.reservation.BucketLimit;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.util.List;

/**
 * Token buckets shared by every instance, one Redis round trip per take: {@code rate_limit_take.lua} (GCRA, the
 * token bucket with greedy refill kept as one number, on Redis's clock) by EVALSHA (ADR 0048; Bucket4j's Redis proxy
 * managers are compare-and-swap, a GET and an EVAL per take). One key per bucket, {@code <prefix><limit>:<subject>},
 * without a hash tag, so the buckets spread over a cluster's slots. They serve the client address's limit; the
 * buyer's bucket is kept by {@code reserve.lua} itself, in the sale's slot, one round trip for both (ADR 0060). A key expires {@link BucketArguments#KEEP_AFTER_FULL} after its bucket would be full again, so
 * Redis holds recent callers' buckets only.
 */
public final class RedisRateLimitBuckets implements RateLimitBucketsPort {

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript take;
    private final String prefix;

    RedisRateLimitBuckets(RedisClusterCommands<String, String> redis, String prefix) {
        this.redis = redis;
        this.take = LuaScript.load(redis, "rate_limit_take");
        this.prefix = prefix;
    }

    @Override
    public BucketAnswer tryTake(BucketKey key, BucketLimit limit) {
        List<Long> reply = take.run(redis, ScriptOutputType.MULTI, new String[]{prefix + key.limit().label() + ":"
                + key.subject()}, BucketArguments.of(limit));
        return new BucketAnswer(reply.get(0) == 1, reply.get(1), Duration.ofNanos(reply.get(2) * 1000));
    }
}
