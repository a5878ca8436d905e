package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.ArrayList;
import java.util.List;

/**
 * Unlinks the request index's buckets an archive or a rebuild's begin left to drop (ADR 0102): the buckets the drop
 * marker names, in pages of {@value #PAGE} keys, one {@code request_drop.lua} call each, so that no command blocks the
 * sale's shard for long. A page runs only while the marker is the one read here, so a caller whose drop another took
 * over (a new marker) or finished (none) unlinks nothing more. Absent buckets (a rebuild after meta was lost drops all
 * 8,192 a sale may have) cost a lookup each.
 */
final class RequestIndexDrop {

    /** Buckets a page unlinks: pages of 256 took at most 3.6 ms at a load average of 5, of 512 up to 5.2 (ADR 0102). */
    static final int PAGE = 256;

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript page;

    RequestIndexDrop(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
        this.page = LuaScript.load(redis, "request_drop");
    }

    /** Drops what the activity's marker names, if there is one, until done or taken over. */
    void finish(ActivityId activityId) {
        finish(RedisKeys.sliceZero(activityId));
    }

    /** Drops what the slice's marker names (ADR 109: each slice has its own index), as for a sale. */
    void finish(SaleSlice slice) {
        String marker = redis.get(RedisKeys.requestsDrop(slice));
        if (marker == null) {
            return;
        }
        int buckets = Integer.parseInt(marker.substring(0, marker.indexOf(':')));
        int first = 1;
        do {
            int last = Math.min(buckets, first + PAGE - 1);
            Long dropped = page.run(redis, ScriptOutputType.INTEGER, pageKeys(slice, first, last), marker,
                    last == buckets ? "1" : "0");
            if (dropped != 1L) {
                return;
            }
            first = last + 1;
        } while (first <= buckets);
    }

    private static String[] pageKeys(SaleSlice slice, int first, int last) {
        List<String> keys = new ArrayList<>(2 + last - first + 1);
        keys.add(RedisKeys.requestsDrop(slice));
        keys.add(RedisKeys.meta(slice));
        for (int k = first; k <= last; k++) {
            keys.add(RedisKeys.requestBucket(slice, k));
        }
        return keys.toArray(String[]::new);
    }
}
