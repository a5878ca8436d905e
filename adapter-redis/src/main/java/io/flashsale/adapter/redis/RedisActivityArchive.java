package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
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
 */
public final class RedisActivityArchive implements HotStoreArchivePort {

    private final RedisClusterCommands<String, String> redis;
    private final String outboxRegistry;
    private final LuaScript archive;
    private final PagedReads pages;
    private final RequestIndexDrop drop;
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
        this.redis = redis;
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
        if ("1".equals(redis.hget(RedisKeys.meta(activityId), TRACKS_IN_FLIGHT))) {
            Set<String> inFlight = pages.hash(RedisKeys.inFlight(activityId)).keySet();
            return pages.records(RedisKeys.reservations(activityId), inFlight).stream()
                    .filter(record -> record.status() == ReservationStatus.RESERVED).count();
        }
        return pages.reservationIds(RedisKeys.reservations(activityId), ReservationStatus.RESERVED::equals).size();
    }

    @Override
    public List<ReservationId> cancelledReservations(ActivityId activityId) {
        return pages.reservationIds(RedisKeys.reservations(activityId), ReservationStatus.CANCELLED::equals).stream()
                .map(ReservationId::new)
                .toList();
    }

    @Override
    public boolean delete(ActivityId activityId) {
        Long drained = archive.run(redis, ScriptOutputType.INTEGER, scriptKeys(activityId), RedisKeys.OUTBOX_GROUP);
        if (drained != 1L) {
            return false;
        }
        // The sale is gone from here on; its buckets go now, or on a retry after a crash (the marker stays till then).
        drop.finish(activityId);
        // After the keys: a registered activity without keys reads as an empty outbox; the reverse could strand one.
        redis.srem(outboxRegistry, activityId.value());
        return true;
    }

    /** The KEYS of {@code archive.lua}: the drop marker, then every key it deletes. */
    static String[] scriptKeys(ActivityId activityId) {
        List<String> keys = new ArrayList<>(RedisKeys.archiveKeys(activityId));
        keys.addFirst(RedisKeys.requestsDrop(activityId));
        return keys.toArray(String[]::new);
    }
}
