package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.adapter.redis.internal.ReservationLines;
import io.flashsale.adapter.redis.internal.ScriptReplies;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.StockTransfer;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A lost sale loaded again from the database of record's orders: {@code rebuild_begin.lua} drops what the loss left
 * under a lease (the request index's buckets then in pages, {@link RequestIndexDrop}, before the first page of orders:
 * ADR 0102), {@code rebuild_page.lua} writes a page of orders with the cursor, {@code rebuild_finish.lua} writes
 * the totals and makes the sale ready. Each step runs only while its rebuild holds the lease, so a runner that took over
 * makes the others' writes refused. Thread-safe: many threads may share the one connection.
 *
 * <p>One slice of a sale in slices is rebuilt the same way over its own keys alone (ADR 111), while the other slices
 * go on selling: the scripts take every key they touch in {@code KEYS}, and a whole sale is slice 0 of a sale of one
 * slice, so both ports run the one code path.
 */
public final class RedisHotStoreRebuild implements HotStoreRebuildPort, SliceRebuildPort {

    private final RedisClusterCommands<String, String> redis;
    private final String outboxRegistry;
    private final LuaScript rebuildBegin;
    private final LuaScript rebuildPage;
    private final LuaScript rebuildFinish;
    private final RequestIndexDrop drop;
    private final PagedReads outboxes;
    private final Consumer<ActivityId> returns;

    /** @param outboxRegistry the set key the relays' {@link RedisReservationOutbox} reads, as the stock adapter's */
    public RedisHotStoreRebuild(StatefulRedisConnection<String, String> connection, String outboxRegistry) {
        this(connection.sync(), outboxRegistry, activityId -> { });
    }

    /** @param returns told after every rebuild: it makes the sale's units buyable again */
    RedisHotStoreRebuild(RedisClusterCommands<String, String> redis, String outboxRegistry,
                         Consumer<ActivityId> returns) {
        this.redis = redis;
        this.outboxRegistry = outboxRegistry;
        this.returns = returns;
        this.rebuildBegin = LuaScript.load(redis, "rebuild_begin");
        this.rebuildPage = LuaScript.load(redis, "rebuild_page");
        this.rebuildFinish = LuaScript.load(redis, "rebuild_finish");
        this.drop = new RequestIndexDrop(redis);
        this.outboxes = new PagedReads(redis);
    }

    /** A rebuild whose runner has not written a page for this long is taken over by the next caller. */
    static final long REBUILD_LEASE_SECONDS = 30;

    @Override
    public RebuildStart beginRebuild(ActivityId activityId, Instant since) {
        return beginRebuild(RedisKeys.sliceZero(activityId), since);
    }

    @Override
    public RebuildStart beginRebuild(SaleSlice slice, Instant since) {
        List<Object> reply = rebuildBegin.run(redis, ScriptOutputType.MULTI, beginKeys(slice),
                RedisKeys.OUTBOX_GROUP,
                Long.toString(REBUILD_LEASE_SECONDS), Long.toString(since.toEpochMilli()));
        return switch (ScriptReplies.text(reply, 0)) {
            case "LOADED" -> new RebuildStart.Loaded();
            case "BUSY" -> ScriptReplies.text(reply, 1).startsWith("rebuild ") ? new RebuildStart.Rebuilding()
                    : new RebuildStart.OutboxPending();
            case "STARTED" -> {
                // Also a drop a runner taken over left unfinished: its pages refuse until the drop is done.
                drop.finish(slice);
                String cursor = ScriptReplies.text(reply, 2);
                yield new RebuildStart.Started(ScriptReplies.text(reply, 1),
                        cursor.isEmpty() ? Optional.empty() : Optional.of(new ReservationId(cursor)),
                        Instant.ofEpochMilli(Long.parseLong(ScriptReplies.text(reply, 3))));
            }
            default -> throw new IllegalStateException("rebuild_begin.lua answered " + reply);
        };
    }

    /** The KEYS of {@code rebuild_begin.lua} for a whole sale. */
    static String[] beginKeys(ActivityId activityId) {
        return beginKeys(RedisKeys.sliceZero(activityId));
    }

    /** The KEYS of {@code rebuild_begin.lua}: the slice's own. */
    static String[] beginKeys(SaleSlice slice) {
        return new String[] {RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.holdings(slice),
                RedisKeys.reservations(slice), RedisKeys.requests(slice), RedisKeys.outbox(slice),
                RedisKeys.inFlight(slice), RedisKeys.acceptedRequests(slice), RedisKeys.requestsDrop(slice)};
    }

    @Override
    public boolean rebuildPage(ActivityId activityId, String rebuildId, Optional<ReservationId> after,
                               ReservationId last, List<Order> orders) {
        return rebuildPage(RedisKeys.sliceZero(activityId), rebuildId, after, last, orders);
    }

    @Override
    public boolean rebuildPage(SaleSlice slice, String rebuildId, Optional<ReservationId> after, ReservationId last,
                               List<Order> orders) {
        String[] keys = {RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.holdings(slice),
                RedisKeys.reservations(slice), RedisKeys.requests(slice), RedisKeys.acceptedRequests(slice),
                RedisKeys.requestsDrop(slice)};
        List<String> args = new ArrayList<>(List.of(rebuildId, after.map(ReservationId::value).orElse(""),
                last.value(), idPrefix(slice)));
        for (Order order : orders) {
            args.add(order.id().value());
            args.add(order.buyerId().value());
            args.add(order.requestId().value());
            args.add(order.status().name());
            args.add(order.reservedAt().toString());
            args.add(ReservationLines.encode(order.lines()));
        }
        Long written = rebuildPage.run(redis, ScriptOutputType.INTEGER, keys, args.toArray(String[]::new));
        return written == 1L;
    }

    /**
     * What every reservation id made in the slice starts with, up to its last dot (the activity id, or
     * {@code <a>.<k>of<n>} in a sale of slices): the request index keeps only what follows it (ADR 71).
     */
    private static String idPrefix(SaleSlice slice) {
        String id = ReservationId.of(slice, "0").value();
        return id.substring(0, id.lastIndexOf('.'));
    }

    /** Slice 0 of the sale's own count, so that a sale of slices rebuilt this way still names its count. */
    @Override
    public boolean finishRebuild(Activity activity, String rebuildId, List<SkuRebuild> skus) {
        return finishRebuild(activity, new SaleSlice(activity.id(), 0, activity.slices()), rebuildId, skus,
                List.of());
    }

    @Override
    public boolean loaded(SaleSlice slice) {
        return "1".equals(redis.hget(RedisKeys.meta(slice), RedisKeys.META_READY));
    }

    @Override
    public boolean outboxDrained(SaleSlice slice) {
        return outboxes.drained(RedisKeys.outbox(slice), RedisKeys.OUTBOX_GROUP);
    }

    @Override
    public boolean finishRebuild(Activity activity, SaleSlice slice, String rebuildId, List<SkuRebuild> skus,
                                 List<StockTransfer> transfers) {
        if (!slice.activityId().equals(activity.id()) || !slice.slices().equals(activity.slices())) {
            throw new IllegalArgumentException("slice " + slice + " is not one of the sale " + activity.id()
                    + " of " + activity.slices().count() + " slices");
        }
        ActivityId activityId = activity.id();
        List<String> args = finishArguments(activity, rebuildId, skus);
        args.addAll(TransferSteps.madeBy(slice, transfers));
        Long ready = rebuildFinish.run(redis, ScriptOutputType.INTEGER, finishKeys(slice),
                args.toArray(String[]::new));
        if (ready != 1L) {
            return false;
        }
        // As a warm-up does: the relays read the activity's outbox again (every slice's, under its one id).
        redis.sadd(outboxRegistry, activityId.value());
        returns.accept(activityId);
        return true;
    }

    /** The KEYS of {@code rebuild_finish.lua}: the slice's own. */
    static String[] finishKeys(SaleSlice slice) {
        return new String[] {RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.acceptedRequests(slice),
                RedisKeys.requestsDrop(slice)};
    }

    /** The ARGV of {@code rebuild_finish.lua} up to the sale's slice count: the transfer marks follow. */
    static List<String> finishArguments(Activity activity, String rebuildId, List<SkuRebuild> skus) {
        Map<SkuId, SkuRebuild> bySku = skus.stream().collect(Collectors.toMap(SkuRebuild::skuId, sku -> sku));
        List<String> args = new ArrayList<>(List.of(rebuildId,
                Long.toString(activity.startsAt().getEpochSecond()), Integer.toString(activity.startsAt().getNano()),
                Long.toString(activity.endsAt().getEpochSecond()), Integer.toString(activity.endsAt().getNano()),
                Integer.toString(activity.perUserLimit().max()),
                activity.items().stream().map(item -> item.skuId().value()).collect(Collectors.joining(",")),
                Integer.toString(activity.items().size())));
        for (ActivityItem item : activity.items()) {
            SkuRebuild sku = bySku.get(item.skuId());
            if (sku == null) {
                throw new IllegalArgumentException("no figures to rebuild SKU " + item.skuId() + " of " + activity.id());
            }
            args.add(item.skuId().value());
            args.add(Long.toString(sku.total()));
            args.add(Integer.toString(activity.limitFor(item).max()));
            args.add(Integer.toString(item.segments()));
            args.add(sku.adjustmentsApplied().stream().sorted().map(String::valueOf).collect(Collectors.joining(",")));
        }
        args.add(activity.paused() ? "1" : "0");
        args.add(Integer.toString(activity.slices().count()));
        return args;
    }
}
