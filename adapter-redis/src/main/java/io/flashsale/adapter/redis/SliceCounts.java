package io.flashsale.adapter.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.lettuce.core.KeyValue;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.util.List;

/**
 * Each sale's slice count (ADR 109) as slice 0's meta holds it ({@link RedisKeys#META_SLICES}, absent: one), read on
 * the first ask of a sale and remembered: the count is fixed for the sale's life, and the reserve path asks it for
 * every attempt. A sale not loaded is answered {@link SaleSlices#ONE} and remembered as such for
 * {@link #NOT_LOADED_MEMORY} only, so a crowd at a sale not warmed up yet costs no read per attempt and its warm-up is
 * seen within that time (an id made for one slice meanwhile is refused by the script as not ready). One per hot store,
 * shared by every adapter that needs a sale's count, so a warm-up's {@link #forget} is seen by them all. Thread-safe.
 */
final class SliceCounts {

    /** Sales remembered at most: far more than run at once; one forgotten is read again. */
    static final int REMEMBERED_SALES = 10_000;

    private final RedisClusterCommands<String, String> redis;
    /** How long a sale found not loaded is answered one slice without a read. */
    static final Duration NOT_LOADED_MEMORY = Duration.ofSeconds(1);

    private final Cache<ActivityId, SaleSlices> counts = Caffeine.newBuilder().maximumSize(REMEMBERED_SALES).build();
    private final Cache<ActivityId, Boolean> notLoaded = Caffeine.newBuilder().maximumSize(REMEMBERED_SALES)
            .expireAfterWrite(NOT_LOADED_MEMORY).build();

    SliceCounts(RedisClusterCommands<String, String> redis) {
        this.redis = redis;
    }

    SaleSlices of(ActivityId activityId) {
        SaleSlices known = counts.getIfPresent(activityId);
        if (known != null) {
            return known;
        }
        if (notLoaded.getIfPresent(activityId) != null) {
            return SaleSlices.ONE;
        }
        return read(activityId);
    }

    /**
     * As {@link #of}, but a sale remembered as not loaded is read again: for the moves and reads that must reach every
     * slice of a sale another instance loaded a moment ago (its pause, its outboxes, its archive), none of them asked
     * by a crowd.
     */
    SaleSlices ofNow(ActivityId activityId) {
        SaleSlices known = counts.getIfPresent(activityId);
        return known != null ? known : read(activityId);
    }

    /** Every slice of the sale, slice 0 first. */
    List<SaleSlice> slicesOf(ActivityId activityId) {
        return ofNow(activityId).of(activityId);
    }

    private SaleSlices read(ActivityId activityId) {
        // Read outside the cache's lock: two first asks of a sale read the same count.
        List<KeyValue<String, String>> meta = redis.hmget(RedisKeys.meta(activityId), RedisKeys.META_READY,
                RedisKeys.META_SLICES);
        if (!"1".equals(meta.get(0).getValueOrElse(null))) {
            notLoaded.put(activityId, Boolean.TRUE);
            return SaleSlices.ONE;
        }
        String count = meta.get(1).getValueOrElse(null);
        SaleSlices read = count == null ? SaleSlices.ONE : new SaleSlices(Integer.parseInt(count));
        counts.put(activityId, read);
        notLoaded.invalidate(activityId);
        return read;
    }

    /** The sale's count is read again on the next ask: a reserve call found another than the one remembered. */
    void forget(ActivityId activityId) {
        counts.invalidate(activityId);
        notLoaded.invalidate(activityId);
    }
}
