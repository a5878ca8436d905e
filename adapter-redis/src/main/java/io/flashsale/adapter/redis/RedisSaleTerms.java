package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Instant;

/**
 * A sale's pause and window in its meta hash, where {@code reserve.lua} reads them with the window it already reads
 * (ADR 79). One script call per change, so a sale this Redis does not hold is never half made by it.
 */
public final class RedisSaleTerms implements HotStoreSaleTermsPort {

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript saleTerms;

    public RedisSaleTerms(StatefulRedisConnection<String, String> connection) {
        this(connection.sync());
    }

    RedisSaleTerms(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
        this.saleTerms = LuaScript.load(redis, "sale_terms");
    }

    @Override
    public boolean applyPaused(ActivityId activityId, boolean paused) {
        return write(activityId, "paused", paused ? "1" : "0");
    }

    @Override
    public boolean applyWindow(ActivityId activityId, Instant startsAt, Instant endsAt) {
        return write(activityId, "startsAtSec", Long.toString(startsAt.getEpochSecond()),
                "startsAtNano", Integer.toString(startsAt.getNano()),
                "endsAtSec", Long.toString(endsAt.getEpochSecond()),
                "endsAtNano", Integer.toString(endsAt.getNano()));
    }

    private boolean write(ActivityId activityId, String... fieldsAndValues) {
        Long written = saleTerms.run(redis, ScriptOutputType.INTEGER, new String[] {RedisKeys.meta(activityId)},
                fieldsAndValues);
        return written == 1L;
    }
}
