package io.flashsale.adapter.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.cluster.SlotHash;

import java.util.ArrayList;
import java.util.List;

/**
 * The hash tag of each slice of a sale (ADR 109), from the activity id and the slice count alone, so every instance
 * finds the same slots with nothing stored. The 16,384 cluster slots are cut into {@code n} ranges as
 * {@code redis-cli --cluster create} cuts them over {@code n} masters: range {@code r} starts at
 * {@code round(r * 16384 / n)}. Slice 0 keeps the activity id as its tag (today's keys) and so sits in the range its
 * slot falls in; slice {@code k} (1 <= k < n) takes the k-th of the other ranges in ascending order, with the tag
 * {@code <activity>#<k>.<s>} for the smallest salt {@code s >= 0} whose slot lies in that range.
 */
final class SliceTags {

    static final int SLOTS = SlotHash.SLOT_COUNT;

    /** A salt is found in about n tries; this many means the hash is not what Redis Cluster uses. */
    private static final int MAX_SALT = 1 << 20;

    /** Each try hashes a short string; a sale of 64 slices takes thousands, so each instance does it once a sale. */
    private static final Cache<Sale, List<String>> TAGS = Caffeine.newBuilder().maximumSize(10_000).build();

    private record Sale(ActivityId activityId, int count) {
    }

    private SliceTags() {
    }

    /** The text between the braces of every key of the slice. */
    static String of(SaleSlice slice) {
        if (slice.index() == 0) {
            return slice.activityId().value();
        }
        return TAGS.get(new Sale(slice.activityId(), slice.slices().count()), SliceTags::computed).get(slice.index());
    }

    /** Every slice's tag of a sale of {@code count} slices, slice 0 first, computed without the cache. */
    static List<String> computed(ActivityId activityId, int count) {
        return computed(new Sale(activityId, count));
    }

    private static List<String> computed(Sale sale) {
        String activity = sale.activityId().value();
        int count = sale.count();
        List<String> tags = new ArrayList<>(count);
        tags.add(activity);
        int home = rangeOf(slotOf(activity), count);
        for (int k = 1; k < count; k++) {
            tags.add(saltedTag(activity, k, k <= home ? k - 1 : k, count));
        }
        return List.copyOf(tags);
    }

    private static String saltedTag(String activity, int slice, int range, int count) {
        for (int salt = 0; salt < MAX_SALT; salt++) {
            String tag = activity + "#" + slice + "." + salt;
            if (rangeOf(slotOf(tag), count) == range) {
                return tag;
            }
        }
        throw new IllegalStateException("no salt puts slice " + slice + " of " + activity + " in range " + range);
    }

    /** The cluster slot of every key carrying this tag: Redis hashes the text between the braces. */
    static int slotOf(String tag) {
        return SlotHash.getSlot("{" + tag + "}");
    }

    /** The first slot of range {@code range} of {@code count}: {@code round(range * 16384 / count)}. */
    static int rangeStart(int range, int count) {
        return (int) ((2L * range * SLOTS + count) / (2L * count));
    }

    /** The range of {@code count} that {@code slot} falls in. */
    static int rangeOf(int slot, int count) {
        int range = (int) ((long) slot * count / SLOTS);
        while (range + 1 < count && rangeStart(range + 1, count) <= slot) {
            range++;
        }
        while (rangeStart(range, count) > slot) {
            range--;
        }
        return range;
    }
}
