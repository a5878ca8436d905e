package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.application.port.out.HotStoreArchivePort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Archiving on Redis: finds reservations by status with HSCAN (never one long command that would stall other sales
 * on the same server), and deletes an activity's keys with {@code archive.lua}, which checks in the same atomic
 * step that the outbox is drained. The registry member is removed afterwards: it lives in another cluster slot.
 */
public final class RedisActivityArchive implements HotStoreArchivePort {

    private static final String STATUS_SUFFIX = ":" + RedisKeys.RESERVATION_STATUS;
    /** Hash fields HSCAN looks at per call: a short step for the server, as every paged read of a sale takes. */
    private static final long SCAN_STEP = PagedReads.PAGE;
    private static final String CHECK = "check";
    private static final String DELETE = "delete";

    private final RedisClusterCommands<String, String> redis;
    private final String outboxRegistry;
    private final LuaScript archive;
    private final PagedReads pages;
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
                    .filter(record -> ReservationStatus.RESERVED.name().equals(record.status())).count();
        }
        return withStatus(activityId, ReservationStatus.RESERVED).size();
    }

    @Override
    public List<ReservationId> cancelledReservations(ActivityId activityId) {
        return withStatus(activityId, ReservationStatus.CANCELLED).stream()
                .map(statusField -> statusField.substring(0, statusField.length() - STATUS_SUFFIX.length()))
                .map(ReservationId::new)
                .toList();
    }

    /** The status fields ({@code <id>:status}) of the reservations in that status. */
    private Set<String> withStatus(ActivityId activityId, ReservationStatus status) {
        String reservations = RedisKeys.reservations(activityId);
        ScanArgs statusFields = ScanArgs.Builder.matches("*" + STATUS_SUFFIX).limit(SCAN_STEP);
        // A set, because HSCAN may return a field more than once while the hash is being resized.
        Set<String> found = new HashSet<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            MapScanCursor<String, String> step = redis.hscan(reservations, cursor, statusFields);
            for (Map.Entry<String, String> field : step.getMap().entrySet()) {
                if (status.name().equals(field.getValue())) {
                    found.add(field.getKey());
                }
            }
            cursor = step;
        } while (!cursor.isFinished());
        return found;
    }

    @Override
    public boolean outboxDrained(ActivityId activityId) {
        return run(activityId, CHECK);
    }

    @Override
    public boolean delete(ActivityId activityId) {
        if (!run(activityId, DELETE)) {
            return false;
        }
        // After the keys: a registered activity without keys reads as an empty outbox; the reverse could strand one.
        redis.srem(outboxRegistry, activityId.value());
        return true;
    }

    private boolean run(ActivityId activityId, String mode) {
        List<String> keys = RedisKeys.archiveKeys(activityId);
        Long drained = archive.run(redis, ScriptOutputType.INTEGER, keys.toArray(String[]::new),
                RedisKeys.OUTBOX_GROUP, mode);
        return drained == 1L;
    }
}
