package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Archiving on Redis: finds reservations by status with HSCAN (never one long command that would stall other sales
 * on the same server), and deletes an activity's keys with {@code archive.lua}, which checks in the same atomic
 * step that the outbox is drained, then the request index's buckets in pages ({@link RequestIndexDrop}, ADR 0102).
 * The registry member is removed afterwards: it lives in another cluster slot.
 * <p>
 * A sale in slices (ADR 109) is counted over every slice and deleted slice by slice, each in its own step that checks
 * its own outbox: slices 1 to n-1 first, slice 0 last, since its meta holds the count a repeat needs to find the
 * others; the registry member only once every slice is gone.
 */
public final class RedisActivityArchive implements HotStoreArchivePort {

    private final RedisClusterCommands<String, String> redis;
    private final String outboxRegistry;
    private final LuaScript archive;
    private final PagedReads pages;
    private final RequestIndexDrop drop;
    private final SliceCounts sliceCounts;
    private static final String TRACKS_IN_FLIGHT = "tracksInFlight";

    /** Removes archived activities from the default registry {@link RedisKeys#outboxActivities()}. */
    public RedisActivityArchive(StatefulRedisConnection<String, String> connection) {
        this(connection, RedisKeys.outboxActivities());
    }

    /** @param outboxRegistry the set key the stock adapter's warm-up adds activities to */
    public RedisActivityArchive(StatefulRedisConnection<String, String> connection, String outboxRegistry) {
        this(connection.sync(), outboxRegistry);
    }

    RedisActivityArchive(RedisClusterCommands<String, String> redis, String outboxRegistry) {
        this(redis, outboxRegistry, new SliceCounts(redis));
    }

    /** @param sliceCounts the sales' slice counts, as the hot store's other adapters know them */
    RedisActivityArchive(RedisClusterCommands<String, String> redis, String outboxRegistry, SliceCounts sliceCounts) {
        this.redis = redis;
        this.sliceCounts = sliceCounts;
        this.outboxRegistry = outboxRegistry;
        this.archive = LuaScript.load(redis, "archive");
        this.pages = new PagedReads(redis);
        this.drop = new RequestIndexDrop(redis);
    }

    /**
     * From the in-flight index when the sale keeps one (every RESERVED reservation is in it, ADR 43): O(reservations in
     * flight); else by HSCAN over every status field.
     */
    @Override
    public long reservedCount(ActivityId activityId) {
        return sliceCounts.slicesOf(activityId).stream().mapToLong(this::reservedCount).sum();
    }

    private long reservedCount(SaleSlice slice) {
        if ("1".equals(redis.hget(RedisKeys.meta(slice), TRACKS_IN_FLIGHT))) {
            Set<String> inFlight = pages.hash(RedisKeys.inFlight(slice)).keySet();
            return pages.records(RedisKeys.reservations(slice), inFlight).stream()
                    .filter(record -> record.status() == ReservationStatus.RESERVED).count();
        }
        return pages.reservationIds(RedisKeys.reservations(slice), ReservationStatus.RESERVED::equals).size();
    }

    @Override
    public List<ReservationId> cancelledReservations(ActivityId activityId) {
        return sliceCounts.slicesOf(activityId).stream()
                .flatMap(slice -> pages.reservationIds(RedisKeys.reservations(slice),
                        ReservationStatus.CANCELLED::equals).stream())
                .map(ReservationId::new)
                .toList();
    }

    @Override
    public boolean delete(ActivityId activityId) {
        List<SaleSlice> slices = sliceCounts.slicesOf(activityId);
        for (SaleSlice slice : slices.reversed()) {
            if (!delete(slice)) {
                return false;
            }
        }
        // After the keys: a registered activity without keys reads as an empty outbox; the reverse could strand one.
        redis.srem(outboxRegistry, activityId.value());
        // Gone: should the activity be loaded again, its count is read again.
        sliceCounts.forget(activityId);
        return true;
    }

    /** One slice's keys, once its outbox is drained; a slice already gone is deleted already. */
    boolean delete(SaleSlice slice) {
        Long drained = archive.run(redis, ScriptOutputType.INTEGER, scriptKeys(slice), RedisKeys.OUTBOX_GROUP);
        if (drained != 1L) {
            return false;
        }
        // The slice is gone from here on; its buckets go now, or on a retry after a crash (the marker stays till then).
        drop.finish(slice);
        return true;
    }

    /** The KEYS of {@code archive.lua}: the drop marker, then every key it deletes. */
    static String[] scriptKeys(ActivityId activityId) {
        return scriptKeys(RedisKeys.sliceZero(activityId));
    }

    /** The KEYS of {@code archive.lua} for one slice. */
    static String[] scriptKeys(SaleSlice slice) {
        List<String> keys = new ArrayList<>(RedisKeys.archiveKeys(slice));
        keys.addFirst(RedisKeys.requestsDrop(slice));
        return keys.toArray(String[]::new);
    }
}
