package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;

import java.util.ArrayList;
import java.util.stream.Collectors;

/** The KEYS and ARGV of {@code warm_up.lua}. */
public final class WarmUpScriptCall {

    private static final int ARGS_PER_ITEM = 4;

    private WarmUpScriptCall() {
    }

    public static String[] keys(Activity activity) {
        ActivityId id = activity.id();
        return new String[] {RedisKeys.meta(id), RedisKeys.stock(id), RedisKeys.requests(id),
                RedisKeys.acceptedRequests(id), RedisKeys.requestsDrop(id)};
    }

    public static String[] arguments(Activity activity) {
        var args = new ArrayList<String>(9 + ARGS_PER_ITEM * activity.items().size());
        args.add(Long.toString(activity.startsAt().getEpochSecond()));
        args.add(Integer.toString(activity.startsAt().getNano()));
        args.add(Long.toString(activity.endsAt().getEpochSecond()));
        args.add(Integer.toString(activity.endsAt().getNano()));
        args.add(Integer.toString(activity.perUserLimit().max()));
        args.add(activity.items().stream().map(item -> item.skuId().value()).collect(Collectors.joining(",")));
        AcceptedRequestsFilter.Size size = AcceptedRequestsFilter.Size.forUnits(
                activity.items().stream().mapToLong(ActivityItem::stock).sum());
        args.add(Long.toString(size.bits()));
        args.add(Integer.toString(size.hashes()));
        args.add(activity.paused() ? "1" : "0");
        for (ActivityItem item : activity.items()) {
            args.add(item.skuId().value());
            args.add(Long.toString(item.stock()));
            args.add(Integer.toString(activity.limitFor(item).max()));
            args.add(Integer.toString(item.segments()));
        }
        return args.toArray(String[]::new);
    }
}
