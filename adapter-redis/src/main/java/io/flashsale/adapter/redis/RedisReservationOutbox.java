package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.OutboxEntryDecoder;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.domain.activity.ActivityId;
import io.lettuce.core.Consumer;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.ClaimedMessages;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The outbox streams that {@code reserve.lua} appends to, read by the consumer group {@value RedisKeys#OUTBOX_GROUP}.
 * Reads never block (the connection is shared). The group is made on first use from id 0, so entries written
 * before it existed are delivered too; an activity without a stream reads as empty and no stream is made for it.
 *
 * <p>An entry that cannot be read back into a reservation is never dropped: it is logged as an error each time
 * it is read or claimed and stays pending, so it is visible in XPENDING and the stream is not trimmed past it
 * until an operator repairs or removes it. Everything else keeps flowing around it.
 */
public final class RedisReservationOutbox implements ReservationOutboxPort {

    private static final System.Logger LOG = System.getLogger(RedisReservationOutbox.class.getName());
    /**
     * Entries per acknowledge script call: 500 in one call took up to 9.5 ms of Redis in the 1,000,000-reservation
     * benchmark (docs/reconciliation.md); each entry's acknowledgement is its own, so smaller calls cost only round trips.
     */
    private static final int ACKNOWLEDGE_CHUNK = PagedReads.PAGE;
    private static final String CURSOR_END = "0-0";

    private final RedisClusterCommands<String, String> redis;
    private final String registry;
    private final LuaScript acknowledge;
    private final LuaScript backlog;

    /** Reads the activities of the default registry {@link RedisKeys#outboxActivities()}. */
    public RedisReservationOutbox(StatefulRedisConnection<String, String> connection) {
        this(connection, RedisKeys.outboxActivities());
    }

    /** @param registry the set key that {@link RedisStockReservationAdapter}'s warm-up adds activities to */
    public RedisReservationOutbox(StatefulRedisConnection<String, String> connection, String registry) {
        this(connection.sync(), registry);
    }

    /** On a standalone Redis or a Redis Cluster: every call names keys of one activity, or the registry alone. */
    RedisReservationOutbox(RedisClusterCommands<String, String> redis, String registry) {
        this.redis = redis;
        this.registry = registry;
        this.acknowledge = LuaScript.load(redis, "acknowledge");
        this.backlog = LuaScript.load(redis, "outbox_backlog");
    }

    @Override
    public Set<ActivityId> activities() {
        var activities = new LinkedHashSet<ActivityId>();
        for (String member : redis.smembers(registry)) {
            try {
                activities.add(new ActivityId(member));
            } catch (RuntimeException notAnActivityId) {
                LOG.log(Level.WARNING, "outbox registry {0} holds {1}, which is no activity id; skipped", registry, member);
            }
        }
        return activities;
    }

    @Override
    public List<OutboxEntry> readNew(ActivityId activityId, String relay, int max) {
        if (max < 1) {
            return List.of();
        }
        String outbox = RedisKeys.outbox(activityId);
        List<StreamMessage<String, String>> read = inGroup(outbox, () -> redis.xreadgroup(
                Consumer.from(RedisKeys.OUTBOX_GROUP, relay), XReadArgs.Builder.count(max),
                XReadArgs.StreamOffset.lastConsumed(outbox)));
        return decode(activityId, read == null ? List.of() : read, relay);
    }

    /** XAUTOCLAIM from the start of the pending list, following its cursor until {@code max} entries were claimed. */
    @Override
    public List<OutboxEntry> claimStale(ActivityId activityId, String relay, Duration minIdle, int max) {
        if (max < 1) {
            return List.of();
        }
        String outbox = RedisKeys.outbox(activityId);
        var claimed = new ArrayList<StreamMessage<String, String>>();
        String cursor = CURSOR_END;
        do {
            int room = max - claimed.size();
            String from = cursor;
            ClaimedMessages<String, String> batch = inGroup(outbox, () -> redis.xautoclaim(outbox,
                    XAutoClaimArgs.Builder.xautoclaim(Consumer.from(RedisKeys.OUTBOX_GROUP, relay), minIdle, from)
                            .count(room)));
            if (batch == null) {
                break;
            }
            claimed.addAll(batch.getMessages());
            cursor = batch.getId();
        } while (!CURSOR_END.equals(cursor) && claimed.size() < max);
        return decode(activityId, claimed, relay);
    }

    @Override
    public void acknowledge(ActivityId activityId, List<OutboxEntry> entries) {
        acknowledge(activityId, entries, List.of());
    }

    /**
     * Positions, when given, are recorded on the reservations' records in the step that acknowledges them. The
     * reservations of one store entry (ADR 107: one per reserve call) go in one script call, so none of them is out of
     * the outbox before every one has its position.
     */
    @Override
    public void acknowledge(ActivityId activityId, List<OutboxEntry> entries, List<EventPosition> positions) {
        if (!positions.isEmpty() && positions.size() != entries.size()) {
            throw new IllegalArgumentException(positions.size() + " positions for " + entries.size() + " entries");
        }
        String[] keys = {RedisKeys.outbox(activityId), RedisKeys.reservations(activityId)};
        int from = 0;
        while (from < entries.size()) {
            int to = Math.min(entries.size(), from + ACKNOWLEDGE_CHUNK);
            while (to < entries.size() && entries.get(to).entryId().equals(entries.get(to - 1).entryId())) {
                to++;
            }
            var entryIds = new LinkedHashSet<String>();
            entries.subList(from, to).forEach(entry -> entryIds.add(entry.entryId()));
            var args = new ArrayList<String>(entryIds.size() + (to - from) * 2 + 2);
            args.add(RedisKeys.OUTBOX_GROUP);
            args.add(Integer.toString(entryIds.size()));
            args.addAll(entryIds);
            for (int i = from; i < to && !positions.isEmpty(); i++) {
                args.add(entries.get(i).reservation().id().value());
                args.add(positions.get(i).toString());
            }
            acknowledge.run(redis, ScriptOutputType.INTEGER, keys, args.toArray(String[]::new));
            from = to;
        }
    }

    /**
     * One XINFO GROUPS: the group's pending count and lag (Redis 7). A lag Redis cannot tell (entries deleted in
     * between) or a stream the group was not made on yet answers true: the relay then reads, which settles it.
     */
    @Override
    public boolean hasEntriesWaiting(ActivityId activityId) {
        List<Object> groups;
        try {
            groups = redis.xinfoGroups(RedisKeys.outbox(activityId));
        } catch (RedisCommandExecutionException error) {
            if (error.getMessage() != null && error.getMessage().contains("no such key")) {
                return false;
            }
            throw error;
        }
        for (Object group : groups) {
            Map<String, Object> fields = fields((List<?>) group);
            if (RedisKeys.OUTBOX_GROUP.equals(fields.get("name"))) {
                return !(fields.get("pending") instanceof Long pending && pending == 0
                        && fields.get("lag") instanceof Long lag && lag == 0);
            }
        }
        return true;
    }

    private static Map<String, Object> fields(List<?> pairs) {
        var fields = new HashMap<String, Object>();
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            fields.put(String.valueOf(pairs.get(i)), pairs.get(i + 1));
        }
        return fields;
    }

    /** One read-only script call (XINFO GROUPS, XPENDING summary, XRANGE COUNT 1): O(1) in the outbox's length. */
    @Override
    public OutboxBacklog backlog(ActivityId activityId) {
        List<Object> reply = backlog.run(redis, ScriptOutputType.MULTI, new String[] {RedisKeys.outbox(activityId)},
                RedisKeys.OUTBOX_GROUP);
        long depth = (Long) reply.get(0);
        String oldest = reply.get(1) instanceof byte[] bytes ? new String(bytes, java.nio.charset.StandardCharsets.UTF_8)
                : String.valueOf(reply.get(1));
        if (depth == 0 || oldest.isEmpty()) {
            return depth == 0 ? OutboxBacklog.EMPTY : new OutboxBacklog(depth, null);
        }
        // A stream id starts with the millisecond the entry was added (XADD *): when the reservation was accepted.
        return new OutboxBacklog(depth, Instant.ofEpochMilli(Long.parseLong(oldest.substring(0, oldest.indexOf('-')))));
    }

    private List<OutboxEntry> decode(ActivityId activityId, List<StreamMessage<String, String>> messages, String relay) {
        var entries = new ArrayList<OutboxEntry>(messages.size());
        for (StreamMessage<String, String> message : messages) {
            try {
                entries.addAll(OutboxEntryDecoder.decodeAll(activityId, message.getId(), message.getBody()));
            } catch (IllegalArgumentException malformed) {
                LOG.log(Level.ERROR, "outbox entry left pending with relay " + relay
                        + " until repaired (XPENDING / XRANGE " + RedisKeys.outbox(activityId) + "): "
                        + malformed.getMessage());
            }
        }
        return entries;
    }

    /**
     * Runs a group read; when the group does not exist yet it is made from id 0 and the read repeated. Null when
     * the activity has no outbox stream at all.
     */
    private <T> T inGroup(String outbox, Supplier<T> read) {
        try {
            return read.get();
        } catch (RedisCommandExecutionException error) {
            if (!isNoGroup(error)) {
                throw error;
            }
        }
        try {
            // Without MKSTREAM: a registered activity whose stream is gone must not get an empty one back.
            redis.xgroupCreate(XReadArgs.StreamOffset.from(outbox, "0-0"), RedisKeys.OUTBOX_GROUP);
        } catch (RedisCommandExecutionException error) {
            if (isMissingStream(error) || redis.exists(outbox) == 0) {
                // No stream when asked: nothing to read in this pass, even if the first entry arrives right now.
                return null;
            }
            if (!isBusyGroup(error)) {
                throw error;
            }
        }
        return read.get();
    }

    private static boolean isMissingStream(RedisCommandExecutionException error) {
        return error.getMessage() != null && error.getMessage().contains("requires the key to exist");
    }

    private static boolean isNoGroup(RedisCommandExecutionException error) {
        return error.getMessage() != null && error.getMessage().startsWith("NOGROUP");
    }

    private static boolean isBusyGroup(RedisCommandExecutionException error) {
        return error.getMessage() != null && error.getMessage().startsWith("BUSYGROUP");
    }
}
