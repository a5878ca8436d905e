package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Instant;

/**
 * A sale's pause and window in its meta hash, where {@code reserve.lua} reads them with the window it already reads
 * (ADR 79). One script call per change and slice, so a sale this Redis does not hold is never half made by it. A sale
 * in slices (ADR 109) has them in every slice's meta, each written in its own call: a pause reaches the slices within
 * one round of calls.
 */
public final class RedisSaleTerms implements HotStoreSaleTermsPort {

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript saleTerms;
    private final SliceCounts sliceCounts;

    public RedisSaleTerms(StatefulRedisConnection<String, String> connection) {
        this(connection.sync());
    }

    RedisSaleTerms(RedisClusterCommands<String, String> redis) {
        this(redis, new SliceCounts(redis));
    }

    /** @param sliceCounts the sales' slice counts, as the hot store's other adapters know them */
    RedisSaleTerms(RedisClusterCommands<String, String> redis, SliceCounts sliceCounts) {
        this.redis = redis;
        this.sliceCounts = sliceCounts;
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

    /**
     * True only when every slice took it. A slice that does not hold the sale is left as it is and the others are
     * written all the same: each takes its terms from MySQL when it is loaded.
     */
    private boolean write(ActivityId activityId, String... fieldsAndValues) {
        boolean everySlice = true;
        for (SaleSlice slice : sliceCounts.slicesOf(activityId)) {
            Long written = saleTerms.run(redis, ScriptOutputType.INTEGER, new String[] {RedisKeys.meta(slice)},
                    fieldsAndValues);
            everySlice &= written == 1L;
        }
        return everySlice;
    }
}
