package io.flashsale.adapter.redis;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A read of at most {@code max} entries of a sale spread over its slices' outboxes (ADR 109), so that one busy slice
 * neither starves the others nor is held to a fraction of the read when the others are idle. First every slice is
 * asked for its share ({@code max / n}, the remainder one each to the slices from this sale's turn on, the turn moving
 * one slice every read, so with {@code max < n} every slice is asked in turn); then the room the slices that gave less
 * left is offered to those that gave all they were asked (or were asked for nothing), one after the other, each an
 * even part of what is still left. Two rounds at most (at most 2n reads), at most {@code max} in all. A sale of one
 * slice is one read of {@code max}, as before slices. Thread-safe.
 */
final class SliceShares {

    /** Sales whose turn is remembered at most; one forgotten starts again at slice 0. */
    private static final int REMEMBERED_SALES = 10_000;

    private final Cache<ActivityId, AtomicInteger> turns = Caffeine.newBuilder().maximumSize(REMEMBERED_SALES)
            .build();

    /**
     * @param read reads at most the given number of entries from a slice (never asked for fewer than one)
     * @return what each slice gave, in the order read; only slices that were read
     */
    <T> Map<SaleSlice, List<T>> read(List<SaleSlice> slices, int max, BiFunction<SaleSlice, Integer, List<T>> read) {
        Map<SaleSlice, List<T>> given = new LinkedHashMap<>();
        if (max < 1 || slices.isEmpty()) {
            return given;
        }
        int first = slices.size() == 1 ? 0
                : Math.floorMod(turns.get(slices.getFirst().activityId(), sale -> new AtomicInteger())
                .getAndIncrement(), slices.size());
        int[] shares = shares(max, slices.size(), first);
        List<SaleSlice> mayHoldMore = new ArrayList<>();
        int room = max;
        for (int i = 0; i < slices.size(); i++) {
            SaleSlice slice = slices.get((first + i) % slices.size());
            int share = shares[(first + i) % slices.size()];
            List<T> got = share == 0 ? List.of() : read.apply(slice, share);
            if (!got.isEmpty()) {
                given.put(slice, new ArrayList<>(got));
            }
            room -= got.size();
            if (got.size() >= share) {
                mayHoldMore.add(slice);
            }
        }
        for (int i = 0; i < mayHoldMore.size() && room > 0; i++) {
            // An even part of the room still left, so what one slice does not take the next ones may.
            int left = mayHoldMore.size() - i;
            List<T> got = read.apply(mayHoldMore.get(i), (room + left - 1) / left);
            if (!got.isEmpty()) {
                given.computeIfAbsent(mayHoldMore.get(i), slice -> new ArrayList<>()).addAll(got);
            }
            room -= got.size();
        }
        return given;
    }

    /** {@code max} split over {@code n}: {@code max / n} each, one more each for the remainder from {@code first}. */
    static int[] shares(int max, int n, int first) {
        int[] shares = new int[n];
        for (int i = 0; i < n; i++) {
            shares[(first + i) % n] = max / n + (i < max % n ? 1 : 0);
        }
        return shares;
    }
}
