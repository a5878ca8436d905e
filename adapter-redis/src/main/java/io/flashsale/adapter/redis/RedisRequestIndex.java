package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.api.sync.RedisHashCommands;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads of a sale's request index from Java, wherever its entries are (ADR 0100): in the buckets meta's
 * {@value RedisKeys#REQUEST_BUCKETS} counts, or in the single hash of a sale warmed before them. The scripts read and
 * write it themselves; this is for the reconciler's reads and for tests that look inside the hot store. Each slice of
 * a sale in slices (ADR 109) has an index of its own; a method taking an {@link ActivityId} reads slice 0's.
 */
public final class RedisRequestIndex {

    private RedisRequestIndex() {
    }

    /** The sale's bucket count, 0 for the single hash (no count in meta). */
    public static int buckets(RedisHashCommands<String, String> redis, ActivityId activityId) {
        return buckets(redis, RedisKeys.sliceZero(activityId));
    }

    /** The slice's bucket count, 0 for the single hash. */
    public static int buckets(RedisHashCommands<String, String> redis, SaleSlice slice) {
        String count = redis.hget(RedisKeys.meta(slice), RedisKeys.REQUEST_BUCKETS);
        return count == null ? 0 : Integer.parseInt(count);
    }

    /** Every key of the sale's index: the single hash, then each bucket. */
    public static List<String> keys(RedisHashCommands<String, String> redis, ActivityId activityId) {
        return RedisKeys.requestKeys(activityId, buckets(redis, activityId));
    }

    /**
     * Every key of the activity an archive deletes ({@link RedisKeys#archiveKeys}) and the index's buckets: what to
     * delete to lose the whole sale. Read before meta goes (the bucket count is there).
     */
    public static List<String> saleKeys(RedisHashCommands<String, String> redis, ActivityId activityId) {
        List<String> keys = new ArrayList<>(RedisKeys.archiveKeys(activityId));
        List<String> index = keys(redis, activityId);
        keys.addAll(index.subList(1, index.size()));
        return keys;
    }

    /** The entry of a request field ("&lt;buyer&gt;:&lt;requestId&gt;"), or null. */
    public static String entry(RedisHashCommands<String, String> redis, ActivityId activityId, String field) {
        return entry(redis, RedisKeys.sliceZero(activityId), field);
    }

    /** The entry of a request field in the slice's index, or null. */
    public static String entry(RedisHashCommands<String, String> redis, SaleSlice slice, String field) {
        return redis.hget(RedisKeys.requestKey(slice, buckets(redis, slice), field), field);
    }

    /** Every entry of the index, read key by key (not one atomic read). */
    public static Map<String, String> entries(RedisHashCommands<String, String> redis, ActivityId activityId) {
        Map<String, String> entries = new HashMap<>();
        for (String key : keys(redis, activityId)) {
            entries.putAll(redis.hgetall(key));
        }
        return entries;
    }

    /** How many entries the index holds. */
    public static long size(RedisHashCommands<String, String> redis, ActivityId activityId) {
        long size = 0;
        for (String key : keys(redis, activityId)) {
            size += redis.hlen(key);
        }
        return size;
    }

    /** The entries of the given fields, in their order (null where there is none): one HMGET per key they fall in. */
    static List<String> entries(RedisHashCommands<String, String> redis, SaleSlice slice, List<String> fields) {
        int buckets = buckets(redis, slice);
        Map<String, List<Integer>> byKey = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            byKey.computeIfAbsent(RedisKeys.requestKey(slice, buckets, fields.get(i)), key -> new ArrayList<>())
                    .add(i);
        }
        List<String> values = new ArrayList<>(Collections.nCopies(fields.size(), (String) null));
        byKey.forEach((key, positions) -> {
            var read = redis.hmget(key, positions.stream().map(fields::get).toArray(String[]::new));
            for (int j = 0; j < positions.size(); j++) {
                values.set(positions.get(j), read.get(j).getValueOrElse(null));
            }
        });
        return values;
    }
}
