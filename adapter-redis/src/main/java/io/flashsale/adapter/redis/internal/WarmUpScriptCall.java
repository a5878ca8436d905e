package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The KEYS and ARGV of {@code warm_up.lua}, one call per slice of the sale (ADR 109): each slice is loaded on its own
 * keys with its share of every SKU ({@link SaleSlices#shareOf}), so its filter of accepted keys and its request
 * index's buckets are sized from its share. A sale of one slice is one call on the activity's keys, as before slices.
 */
public final class WarmUpScriptCall {

    private static final int ARGS_PER_ITEM = 4;
    private static final int HEADER_ARGS = 10;

    private WarmUpScriptCall() {
    }

    /** Every slice of the sale, slice 0 first. */
    public static List<SaleSlice> slicesOf(Activity activity) {
        return activity.slices().of(activity.id());
    }

    /** Slice 0's keys: the activity's own. */
    public static String[] keys(Activity activity) {
        return keys(slicesOf(activity).getFirst());
    }

    public static String[] keys(SaleSlice slice) {
        return new String[] {RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.requests(slice),
                RedisKeys.acceptedRequests(slice), RedisKeys.requestsDrop(slice)};
    }

    /** Slice 0's arguments: for a sale of one slice, the whole sale. */
    public static String[] arguments(Activity activity) {
        return arguments(activity, slicesOf(activity).getFirst());
    }

    /** The slice's arguments: the sale's terms, its slice count, and the slice's share of every SKU. */
    public static String[] arguments(Activity activity, SaleSlice slice) {
        if (!slice.activityId().equals(activity.id()) || !slice.slices().equals(activity.slices())) {
            throw new IllegalArgumentException("slice " + slice + " is not one of " + activity.id() + "'s "
                    + activity.slices().count());
        }
        SaleSlices slices = activity.slices();
        long[] shares = activity.items().stream().mapToLong(item -> slices.shareOf(slice.index(), item.stock()))
                .toArray();
        var args = new ArrayList<String>(HEADER_ARGS + ARGS_PER_ITEM * activity.items().size());
        args.add(Long.toString(activity.startsAt().getEpochSecond()));
        args.add(Integer.toString(activity.startsAt().getNano()));
        args.add(Long.toString(activity.endsAt().getEpochSecond()));
        args.add(Integer.toString(activity.endsAt().getNano()));
        args.add(Integer.toString(activity.perUserLimit().max()));
        args.add(activity.items().stream().map(item -> item.skuId().value()).collect(Collectors.joining(",")));
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(Arrays.stream(shares).sum());
        args.add(Long.toString(size.bits()));
        args.add(Integer.toString(size.hashes()));
        args.add(activity.paused() ? "1" : "0");
        args.add(Integer.toString(slices.count()));
        for (int i = 0; i < shares.length; i++) {
            ActivityItem item = activity.items().get(i);
            args.add(item.skuId().value());
            args.add(Long.toString(shares[i]));
            args.add(Integer.toString(activity.limitFor(item).max()));
            args.add(Integer.toString(item.segments()));
        }
        return args.toArray(String[]::new);
    }
}
