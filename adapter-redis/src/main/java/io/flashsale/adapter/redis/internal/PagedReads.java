package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.domain.reservation.ReservationStatus;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.Range;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.models.stream.PendingMessage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Reads big hashes and streams in pages of {@link #PAGE} entries, each page its own short command, so no read costs
 * the server in proportion to a sale's buyers or reservations. Pages are not one atomic look: callers check that what
 * they read held still (the SKU versions) before they trust it.
 */
public final class PagedReads {

    /**
     * Entries per command (HSCAN's COUNT, XRANGE's and XPENDING's limit, fields per HMGET). At 300 one HMGET of
     * reservation records reached 8.6 ms in the 1,000,000-reservation benchmark on the loaded box (issue 8, item 1): a
     * third of that keeps each command's own work near 0.1 ms, so descheduling is all that can make one slow.
     */
    public static final int PAGE = 100;

    private final RedisClusterCommands<String, String> redis;
    private final ReadPace pace;

    public PagedReads(RedisClusterCommands<String, String> redis) {
        this(redis, ReadPace.NONE);
    }

    /** @param pace how the reads yield between their pages */
    public PagedReads(RedisClusterCommands<String, String> redis, ReadPace pace) {
        this.redis = redis;
        this.pace = pace;
    }

    /** The pace of these reads, for a caller that pages a hash itself. */
    public ReadPace pace() {
        return pace;
    }

    /** Every field of a hash, by HSCAN. A field may come twice while the hash is resized: the map keeps one. */
    public Map<String, String> hash(String key) {
        Map<String, String> all = new HashMap<>();
        scan(key, ScanArgs.Builder.limit(PAGE), all::put);
        return all;
    }

    /** The fields of a hash whose names match the glob {@code pattern}, by HSCAN with MATCH. */
    public Map<String, String> hash(String key, String pattern) {
        Map<String, String> matching = new HashMap<>();
        scan(key, ScanArgs.Builder.matches(pattern).limit(PAGE), matching::put);
        return matching;
    }

    /**
     * Ids of the reservations whose status passes {@code wanted}, by HSCAN over the records (one field each, its
     * status read from the first letter; a restored order's letter is no record).
     */
    public Set<String> reservationIds(String reservations, Predicate<ReservationStatus> wanted) {
        Set<String> ids = new HashSet<>();
        scan(reservations, ScanArgs.Builder.limit(PAGE), (id, record) -> {
            if (!ReservationRecord.isRestoredOrder(record) && wanted.test(ReservationRecord.statusOf(record))) {
                ids.add(id);
            }
        });
        return ids;
    }

    /**
     * The records of the given reservations as they are now, by HMGET in pages; absent ones, and restored orders'
     * letters (ADR 71), are left out.
     */
    public List<SnapshotReply.Record> records(String reservations, Iterable<String> ids) {
        List<SnapshotReply.Record> records = new ArrayList<>();
        List<String> page = new ArrayList<>();
        for (String id : ids) {
            page.add(id);
            if (page.size() >= PAGE) {
                readRecords(reservations, page, records);
                page.clear();
            }
        }
        readRecords(reservations, page, records);
        return records;
    }

    private void readRecords(String reservations, List<String> ids, List<SnapshotReply.Record> into) {
        if (ids.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        List<KeyValue<String, String>> values = redis.hmget(reservations, ids.toArray(String[]::new));
        for (int i = 0; i < ids.size(); i++) {
            if (values.get(i).hasValue() && !ReservationRecord.isRestoredOrder(values.get(i).getValue())) {
                into.add(SnapshotReply.Record.of(ids.get(i), values.get(i).getValue()));
            }
        }
        pace.after(started);
    }

    /**
     * Whether the group acknowledged every entry of the outbox: none pending and none after its last-delivered id (none
     * at all while the group does not exist yet). The check of the scripts' {@code fs_outbox_drained} in at most four
     * short commands, however long the backlog: an entry added before the check is either delivered by the time the
     * group's last-delivered id is read (then pending, or acknowledged) or after that id, where the range finds it.
     */
    public boolean drained(String outbox, String group) {
        if (redis.exists(outbox) == 0) {
            return true;
        }
        String lastDelivered = lastDelivered(outbox, group);
        if (lastDelivered == null) {
            return redis.xlen(outbox) == 0;
        }
        if (redis.xpending(outbox, group).getCount() > 0) {
            return false;
        }
        return redis.xrange(outbox, Range.from(Range.Boundary.excluding(lastDelivered), Range.Boundary.unbounded()),
                Limit.from(1)).isEmpty();
    }

    /**
     * Reservation ids of the outbox entries that the group has not acknowledged: pending ones and ones after its
     * last-delivered id (every entry when the group does not exist yet).
     */
    public Set<String> unacknowledged(String outbox, String group) {
        Set<String> waiting = new HashSet<>();
        if (redis.exists(outbox) == 0) {
            return waiting;
        }
        String lastDelivered = lastDelivered(outbox, group);
        Set<String> pending = new HashSet<>();
        String from = null;
        if (lastDelivered != null) {
            Range<String> range = Range.create("-", "+");
            while (true) {
                long started = System.nanoTime();
                List<PendingMessage> page = redis.xpending(outbox, group, range, Limit.from(PAGE));
                page.forEach(message -> pending.add(message.getId()));
                pace.after(started);
                if (page.size() < PAGE) {
                    break;
                }
                range = Range.from(Range.Boundary.excluding(page.getLast().getId()), Range.Boundary.unbounded());
            }
            from = pending.stream().min(PagedReads::compareIds).orElse(null);
            if (from == null) {
                from = lastDelivered;
            }
        }
        Range<String> range = from == null ? Range.create("-", "+")
                : Range.from(Range.Boundary.including(from), Range.Boundary.unbounded());
        while (true) {
            long started = System.nanoTime();
            List<StreamMessage<String, String>> page = redis.xrange(outbox, range, Limit.from(PAGE));
            for (StreamMessage<String, String> entry : page) {
                boolean unread = lastDelivered == null || compareIds(entry.getId(), lastDelivered) > 0;
                if (unread || pending.contains(entry.getId())) {
                    waiting.addAll(OutboxEntryDecoder.reservationIds(entry.getBody()));
                }
            }
            pace.after(started);
            if (page.size() < PAGE) {
                return waiting;
            }
            range = Range.from(Range.Boundary.excluding(page.getLast().getId()), Range.Boundary.unbounded());
        }
    }

    private String lastDelivered(String outbox, String group) {
        for (Object info : redis.xinfoGroups(outbox)) {
            List<?> fields = (List<?>) info;
            String name = null;
            String last = null;
            for (int i = 0; i + 1 < fields.size(); i += 2) {
                String field = String.valueOf(fields.get(i));
                if (field.equals("name")) {
                    name = String.valueOf(fields.get(i + 1));
                } else if (field.equals("last-delivered-id")) {
                    last = String.valueOf(fields.get(i + 1));
                }
            }
            if (group.equals(name)) {
                return last;
            }
        }
        return null;
    }

    /** Stream ids "millis-sequence" in stream order. */
    static int compareIds(String a, String b) {
        int dashA = a.indexOf('-');
        int dashB = b.indexOf('-');
        int byMillis = Long.compare(Long.parseLong(a.substring(0, dashA)), Long.parseLong(b.substring(0, dashB)));
        return byMillis != 0 ? byMillis
                : Long.compare(Long.parseLong(a.substring(dashA + 1)), Long.parseLong(b.substring(dashB + 1)));
    }

    private void scan(String key, ScanArgs args, BiConsumer<String, String> each) {
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            long started = System.nanoTime();
            MapScanCursor<String, String> step = redis.hscan(key, cursor, args);
            step.getMap().forEach(each);
            cursor = step;
            pace.after(started);
        } while (!cursor.isFinished());
    }

}
