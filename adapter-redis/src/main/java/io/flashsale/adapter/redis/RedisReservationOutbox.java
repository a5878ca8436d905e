package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.OutboxEntryDecoder;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlice;
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
import java.util.LinkedHashMap;
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
 *
 * <p>A sale in slices (ADR 109) has an outbox stream per slice, each with its own group (made on the first read, as
 * any); the registry lists the activity once and every call of it covers all of its slices: a read spreads its
 * {@code max} over them ({@link SliceShares}), an entry's id names the stream it came from ({@link OutboxEntryIds}),
 * and an acknowledgement goes to that stream.
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
    private final SliceCounts sliceCounts;
    private final SliceShares shares = new SliceShares();

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
        this(redis, registry, new SliceCounts(redis));
    }

    /** @param sliceCounts the sales' slice counts, as the hot store's other adapters know them */
    RedisReservationOutbox(RedisClusterCommands<String, String> redis, String registry, SliceCounts sliceCounts) {
        this.redis = redis;
        this.registry = registry;
        this.sliceCounts = sliceCounts;
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
        return decode(shares.read(sliceCounts.slicesOf(activityId), max,
                (slice, share) -> readNew(slice, relay, share)), relay);
    }

    private List<StreamMessage<String, String>> readNew(SaleSlice slice, String relay, int max) {
        String outbox = RedisKeys.outbox(slice);
        List<StreamMessage<String, String>> read = inGroup(outbox, () -> redis.xreadgroup(
                Consumer.from(RedisKeys.OUTBOX_GROUP, relay), XReadArgs.Builder.count(max),
                XReadArgs.StreamOffset.lastConsumed(outbox)));
        return read == null ? List.of() : read;
    }

    /**
     * XAUTOCLAIM from the start of each slice's pending list, following its cursor until the slice's share of
     * {@code max} entries were claimed.
     */
    @Override
    public List<OutboxEntry> claimStale(ActivityId activityId, String relay, Duration minIdle, int max) {
        if (max < 1) {
            return List.of();
        }
        return decode(shares.read(sliceCounts.slicesOf(activityId), max,
                (slice, share) -> claimStale(slice, relay, minIdle, share)), relay);
    }

    private List<StreamMessage<String, String>> claimStale(SaleSlice slice, String relay, Duration minIdle, int max) {
        String outbox = RedisKeys.outbox(slice);
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
        return claimed;
    }

    @Override
    public void acknowledge(ActivityId activityId, List<OutboxEntry> entries) {
        acknowledge(activityId, entries, List.of());
    }

    /**
     * Positions, when given, are recorded on the reservations' records in the step that acknowledges them. The
     * reservations of one store entry (ADR 107: one per reserve call) go in one script call, so none of them is out of
     * the outbox before every one has its position. Each entry is acknowledged in the stream its id names, with the
     * records of that slice.
     */
    @Override
    public void acknowledge(ActivityId activityId, List<OutboxEntry> entries, List<EventPosition> positions) {
        if (!positions.isEmpty() && positions.size() != entries.size()) {
            throw new IllegalArgumentException(positions.size() + " positions for " + entries.size() + " entries");
        }
        Map<SaleSlice, List<OutboxEntry>> entriesBySlice = new LinkedHashMap<>();
        Map<SaleSlice, List<EventPosition>> positionsBySlice = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            OutboxEntry entry = entries.get(i);
            SaleSlice slice = OutboxEntryIds.sliceOf(activityId, entry.entryId());
            entriesBySlice.computeIfAbsent(slice, any -> new ArrayList<>())
                    .add(new OutboxEntry(OutboxEntryIds.streamId(entry.entryId()), entry.reservation()));
            if (!positions.isEmpty()) {
                positionsBySlice.computeIfAbsent(slice, any -> new ArrayList<>()).add(positions.get(i));
            }
        }
        entriesBySlice.forEach((slice, inSlice) ->
                acknowledge(slice, inSlice, positionsBySlice.getOrDefault(slice, List.of())));
    }

    /** Entries of the slice's stream, their ids the stream's. */
    private void acknowledge(SaleSlice slice, List<OutboxEntry> entries, List<EventPosition> positions) {
        String[] keys = {RedisKeys.outbox(slice), RedisKeys.reservations(slice)};
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
     * One XINFO GROUPS a slice, until one has entries waiting: the group's pending count and lag (Redis 7). A lag Redis
     * cannot tell (entries deleted in between) or a stream the group was not made on yet answers true: the relay then
     * reads, which settles it.
     */
    @Override
    public boolean hasEntriesWaiting(ActivityId activityId) {
        for (SaleSlice slice : sliceCounts.slicesOf(activityId)) {
            if (hasEntriesWaiting(slice)) {
                return true;
            }
        }
        return false;
    }

    private boolean hasEntriesWaiting(SaleSlice slice) {
        List<Object> groups;
        try {
            groups = redis.xinfoGroups(RedisKeys.outbox(slice));
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

    /**
     * One read-only script call a slice (XINFO GROUPS, XPENDING summary, XRANGE COUNT 1): O(1) in the outboxes'
     * length. The depths summed, the oldest of the slices' oldest.
     */
    @Override
    public OutboxBacklog backlog(ActivityId activityId) {
        long depth = 0;
        Instant oldest = null;
        for (SaleSlice slice : sliceCounts.slicesOf(activityId)) {
            OutboxBacklog inSlice = backlog(slice);
            depth += inSlice.depth();
            if (inSlice.oldestWaiting() != null && (oldest == null || inSlice.oldestWaiting().isBefore(oldest))) {
                oldest = inSlice.oldestWaiting();
            }
        }
        return depth == 0 ? OutboxBacklog.EMPTY : new OutboxBacklog(depth, oldest);
    }

    private OutboxBacklog backlog(SaleSlice slice) {
        List<Object> reply = backlog.run(redis, ScriptOutputType.MULTI, new String[] {RedisKeys.outbox(slice)},
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

    /** Each slice's messages, their entry ids naming the slice ({@link OutboxEntryIds}). */
    private List<OutboxEntry> decode(Map<SaleSlice, List<StreamMessage<String, String>>> bySlice, String relay) {
        var entries = new ArrayList<OutboxEntry>();
        bySlice.forEach((slice, messages) -> {
            for (StreamMessage<String, String> message : messages) {
                try {
                    entries.addAll(OutboxEntryDecoder.decodeAll(slice.activityId(),
                            OutboxEntryIds.of(slice, message.getId()), message.getBody()));
                } catch (IllegalArgumentException malformed) {
                    LOG.log(Level.ERROR, "outbox entry left pending with relay " + relay
                            + " until repaired (XPENDING / XRANGE " + RedisKeys.outbox(slice) + "): "
                            + malformed.getMessage());
                }
            }
        });
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
