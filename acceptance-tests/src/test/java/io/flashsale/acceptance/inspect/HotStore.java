package io.flashsale.acceptance.inspect;

import io.flashsale.adapter.redis.RedisHotStoreReconciliation;
import io.flashsale.adapter.redis.RedisKeys;
import io.flashsale.adapter.redis.RedisRequestIndex;
import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The Redis hot store as the checks read it: which reservations it accepted and in which status they are now, what
 * each buyer holds, and which keys of a sale it still keeps; and the damage Redis can suffer (lost figures, a lost
 * sale or a lost slice of one, a lost outbox entry, a lost confirmation), which reconciliation must find and repair.
 */
public final class HotStore implements AutoCloseable {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    public HotStore(String redisUri) {
        this.client = RedisClient.create(redisUri);
        this.connection = client.connect();
    }

    /**
     * Reservation id to status (RESERVED, ORDERED, FAILED, ...) of every reservation the sale accepted. One Redis
     * settled as an order keeps no record (ADR 71): its request entry still names it, and it reads ORDERED.
     */
    public Map<String, String> reservationStatuses(String activityId) {
        ActivityId activity = new ActivityId(activityId);
        Map<String, String> statuses = new HashMap<>();
        requests(activity).keySet().forEach(id -> statuses.put(id, ReservationStatus.ORDERED.name()));
        connection.sync().hgetall(RedisKeys.reservations(activity))
                .forEach((id, stored) -> statuses.put(id, ReservationRecord.statusOf(stored).name()));
        return statuses;
    }

    /**
     * The record of a reservation Redis settled as an order, which keeps none (ADR 71), as {@code reserve.lua} wrote
     * it: the buyer and request from its request entry, the lines and the moment it was reserved as the service
     * answers them.
     */
    public ReservationRecord settledRecord(String activityId, String reservationId, Map<String, Long> lines,
                                           Instant reservedAt) {
        String request = Optional.ofNullable(requests(new ActivityId(activityId)).get(reservationId))
                .orElseThrow(() -> new IllegalStateException("no request entry names " + reservationId));
        int colon = request.indexOf(':');
        List<ReservationLine> recordLines = new ArrayList<>();
        lines.forEach((sku, units) -> recordLines.add(new ReservationLine(new SkuId(sku), Math.toIntExact(units))));
        return new ReservationRecord(ReservationStatus.ORDERED, new BuyerId(request.substring(0, colon)),
                new RequestId(request.substring(colon + 1)), recordLines, reservedAt, null, null, null);
    }

    /** A SKU's counters as Redis holds them, read directly: also while the service is down. */
    public record Counters(long reserved, long sold) {
    }

    public Counters counters(String activityId, String skuId) {
        SkuId sku = new SkuId(skuId);
        var values = connection.sync().hmget(RedisKeys.stock(new ActivityId(activityId)),
                RedisKeys.stockField(sku, "reserved"), RedisKeys.stockField(sku, "sold"));
        return new Counters(Long.parseLong(values.get(0).getValueOrElse("0")),
                Long.parseLong(values.get(1).getValueOrElse("0")));
    }

    /**
     * A repair of one SKU worked out as the reconciler does, from a look at the fast store now: the figures and every
     * buyer's holding it read, to be applied only while the SKU still shows the look's version.
     */
    public LedgerRepair repairFromALookNow(String activityId, String skuId) {
        var reconciliation = new RedisHotStoreReconciliation(connection);
        ActivityId activity = new ActivityId(activityId);
        HotSkuSnapshot look = reconciliation.snapshot(activity).orElseThrow().sku(new SkuId(skuId)).orElseThrow();
        HotSkuSnapshot read = reconciliation.withHoldings(activity, look);
        // The SKU's terms as the reserve script reads them.
        List<String> terms = connection.sync().hmget(RedisKeys.stock(activity), skuId + ":segments", skuId + ":limit")
                .stream().map(KeyValue::getValue).toList();
        return new LedgerRepair(read.skuId(), read.figures(), read.holdings(), read.appliedAdjustments(),
                read.version(), Integer.parseInt(terms.get(0)), Integer.parseInt(terms.get(1)));
    }

    /** Applies a repair worked out earlier, through the adapter the reconciler uses. */
    public LedgerRepairResult apply(String activityId, LedgerRepair repair) {
        return new RedisHotStoreReconciliation(connection).repair(new ActivityId(activityId), repair);
    }

    /** Units each buyer holds by SKU, keyed "buyer:sku"; a buyer holding nothing has no entry. */
    public Map<String, Long> holdings(String activityId) {
        return holdings(activityId, SaleSlices.ONE);
    }

    /** As {@link #holdings(String)}, over every slice of a sale in slices: each buyer's are in the buyer's home slice. */
    public Map<String, Long> holdings(String activityId, SaleSlices slices) {
        Map<String, Long> holdings = new TreeMap<>();
        for (int k = 0; k < slices.count(); k++) {
            connection.sync().hgetall(RedisKeys.holdings(new SaleSlice(new ActivityId(activityId), k, slices)))
                    .forEach((field, units) -> holdings.merge(field, Long.parseLong(units), Long::sum));
        }
        return holdings;
    }

    /** Every key of the sale, found by its hash tag, not by the names the adapter knows of (ids hold no glob). */
    public List<String> keysOf(String activityId) {
        return scan("fs:{" + activityId + "}:*");
    }

    /**
     * Every key of one slice of a sale in slices, found by the slice's hash tag (ADR 109): slice 0's are the sale's
     * own ({@link #keysOf(String)}), slice k's carry a tag of their own ({@link RedisKeys#tag(SaleSlice)}). The braces
     * are escaped, so the pattern matches them as they are.
     */
    public List<String> keysOf(SaleSlice slice) {
        return scan("fs:\\{" + RedisKeys.tag(slice) + "\\}:*");
    }

    /** Deletes every key of one slice of a sale in slices: what a master restarted without its data shows of it. */
    public long wipe(SaleSlice slice) {
        List<String> keys = keysOf(slice);
        return keys.isEmpty() ? 0 : connection.sync().del(keys.toArray(String[]::new));
    }

    private List<String> scan(String match) {
        ScanArgs pattern = ScanArgs.Builder.matches(match).limit(1000);
        List<String> keys = new ArrayList<>();
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = connection.sync().scan(cursor, pattern);
            keys.addAll(page.getKeys());
            cursor = page;
        } while (!cursor.isFinished());
        return keys;
    }

    /**
     * Deletes a SKU's ledger figures (total, reserved, sold and every segment's available units), as a lost write
     * would; its reservations and holdings stay.
     *
     * @return how many figures were deleted
     */
    public long loseFiguresOf(String activityId, String skuId) {
        return loseFiguresOf(new SaleSlice(new ActivityId(activityId), 0, SaleSlices.ONE), skuId);
    }

    /** The SKU's total in one slice: its share of the stock with what transfers moved (ADR 109). */
    public long totalOf(SaleSlice slice, String skuId) {
        return Long.parseLong(connection.sync().hget(RedisKeys.stock(slice),
                RedisKeys.stockField(new SkuId(skuId), "total")));
    }

    /** The SKU's units one slice still offers: its total less what it holds as reserved and as sold. */
    public long availableOf(SaleSlice slice, String skuId) {
        SkuId sku = new SkuId(skuId);
        List<Long> figures = connection.sync().hmget(RedisKeys.stock(slice), RedisKeys.stockField(sku, "total"),
                        RedisKeys.stockField(sku, "reserved"), RedisKeys.stockField(sku, "sold")).stream()
                .map(figure -> Long.parseLong(figure.getValue())).toList();
        return figures.get(0) - figures.get(1) - figures.get(2);
    }

    /** As {@link #loseFiguresOf(String, String)}, in one slice of a sale in slices (ADR 109). */
    public long loseFiguresOf(SaleSlice slice, String skuId) {
        String stock = RedisKeys.stock(slice);
        SkuId sku = new SkuId(skuId);
        String segmentPrefix = RedisKeys.stockField(sku, "avail:");
        List<String> figures = new ArrayList<>(List.of(RedisKeys.stockField(sku, "total"),
                RedisKeys.stockField(sku, "reserved"), RedisKeys.stockField(sku, "sold")));
        connection.sync().hkeys(stock).stream().filter(field -> field.startsWith(segmentPrefix)).forEach(figures::add);
        return connection.sync().hdel(stock, figures.toArray(String[]::new));
    }

    /** Counts {@code units} more of the product as sold than the fast store did, touching nothing else. */
    public long countMoreSold(String activityId, String skuId, long units) {
        return connection.sync().hincrby(RedisKeys.stock(new ActivityId(activityId)),
                RedisKeys.stockField(new SkuId(skuId), "sold"), units);
    }

    /** Deletes every key of the sale: what a Redis restarted without its data shows of it. */
    public long wipe(String activityId) {
        List<String> keys = keysOf(activityId);
        return keys.isEmpty() ? 0 : connection.sync().del(keys.toArray(String[]::new));
    }

    /**
     * Trims the sale's outbox to nothing, keeping the stream and its consumer group: entries no relay has read yet
     * are lost, as a write Redis never persisted.
     *
     * @return how many entries were dropped
     */
    public long dropOutbox(String activityId) {
        return connection.sync().xtrim(RedisKeys.outbox(new ActivityId(activityId)), 0);
    }

    /** Reservation id to the request entry ({@code <buyer>:<requestId>}) that names it. */
    private Map<String, String> requests(ActivityId activity) {
        Map<String, String> requests = new HashMap<>();
        RedisRequestIndex.entries(connection.sync(), activity).forEach((field, value) -> requests.put(
                RedisKeys.requestedReservation(activity, new RequestId(field.substring(field.indexOf(':') + 1)), value)
                        .value(), field));
        return requests;
    }

    /**
     * Undoes the hot store's half of an order in one transaction, as if the confirmation never arrived: the
     * reservation's record is back, RESERVED, and its units move from sold back to reserved.
     */
    public void unconfirm(String activityId, String reservationId, ReservationRecord settled) {
        ActivityId activity = new ActivityId(activityId);
        var commands = connection.sync();
        commands.watch(RedisKeys.reservations(activity));
        commands.multi();
        commands.hset(RedisKeys.reservations(activity), reservationId,
                settled.withStatus(ReservationStatus.RESERVED).encode());
        for (ReservationLine line : settled.lines()) {
            commands.hincrby(RedisKeys.stock(activity), RedisKeys.stockField(line.skuId(), "sold"), -line.quantity());
            commands.hincrby(RedisKeys.stock(activity), RedisKeys.stockField(line.skuId(), "reserved"),
                    line.quantity());
        }
        // RESERVED again, so in flight again, as reserve.lua listed it.
        commands.hset(RedisKeys.inFlight(activity), reservationId, "1");
        if (commands.exec().wasDiscarded()) {
            throw new IllegalStateException("could not undo the confirmation of " + reservationId);
        }
    }

    /**
     * A partial loss: the sale's meta and ledger are gone, while its other keys survive, one reservation's record as an
     * older copy from before its order was confirmed (RESERVED again).
     */
    public void loseLedgerKeepingAStaleRecord(String activityId, String reservationId, ReservationRecord settled) {
        ActivityId activity = new ActivityId(activityId);
        var commands = connection.sync();
        commands.hset(RedisKeys.reservations(activity), reservationId,
                settled.withStatus(ReservationStatus.RESERVED).encode());
        commands.del(RedisKeys.meta(activity), RedisKeys.stock(activity));
    }

    /** Redis forgets which requests it answered, as a lost write would: every retry then looks new to it. */
    public long forgetRequests(String activityId) {
        ActivityId activity = new ActivityId(activityId);
        return connection.sync().del(RedisRequestIndex.keys(connection.sync(), activity).toArray(String[]::new));
    }

    /**
     * The hot store's half of the cancel/commit race, in one transaction: the buyer's cancel won there (the record is
     * CANCELLED with the moment of the cancel, and its units are back in available and
     * the buyer's allowance) while MySQL committed the order, and the confirm that would have noticed never ran.
     */
    public void cancelWonWhileOrdered(String activityId, String reservationId, ReservationRecord settled,
                                      Instant cancelledAt) {
        ActivityId activity = new ActivityId(activityId);
        var commands = connection.sync();
        commands.watch(RedisKeys.reservations(activity));
        String cancelled = settled.withStatus(ReservationStatus.CANCELLED).withCancelledAt(cancelledAt).encode();
        commands.multi();
        commands.hset(RedisKeys.reservations(activity), reservationId, cancelled);
        for (ReservationLine line : settled.lines()) {
            SkuId sku = line.skuId();
            long units = line.quantity();
            commands.hincrby(RedisKeys.stock(activity), RedisKeys.stockField(sku, "sold"), -units);
            commands.hincrby(RedisKeys.stock(activity), RedisKeys.segmentField(sku, 1), units);
            commands.hincrby(RedisKeys.holdings(activity), RedisKeys.holdingField(settled.buyer(), sku), -units);
            commands.hincrby(RedisKeys.stock(activity), RedisKeys.stockField(sku, "held"), -units);
        }
        // As release.lua leaves a buyer's cancel: in flight until the books have recorded it.
        commands.hset(RedisKeys.inFlight(activity), reservationId, "1");
        if (commands.exec().wasDiscarded()) {
            throw new IllegalStateException("could not cancel " + reservationId + " in the hot store");
        }
        // As release.lua does: a holding that reaches zero is removed.
        for (ReservationLine line : settled.lines()) {
            String holding = RedisKeys.holdingField(settled.buyer(), line.skuId());
            if ("0".equals(commands.hget(RedisKeys.holdings(activity), holding))) {
                commands.hdel(RedisKeys.holdings(activity), holding);
            }
        }
    }

    /**
     * Writes the records of {@code count} reservations of one unit each that were ordered and paid long ago, as a big
     * sale loaded before ADR 71 leaves them behind: nothing counts them any more (their units are in the books), but
     * they fill the hash.
     */
    public void addPaidReservations(String activityId, String skuId, int count) {
        String reservations = RedisKeys.reservations(new ActivityId(activityId));
        Map<String, String> page = new HashMap<>();
        for (int i = 0; i < count; i++) {
            page.put(activityId + ".paid" + i, new ReservationRecord(ReservationStatus.PAID, new BuyerId("paid" + i),
                    new RequestId("p" + i), List.of(new ReservationLine(new SkuId(skuId), 1)),
                    Instant.parse("2026-01-01T00:00:00Z"), null, null, null).encode());
            if (page.size() >= 500 || i == count - 1) {
                connection.sync().hset(reservations, page);
                page.clear();
            }
        }
    }

    /** Where the broker stored the reservation's event ({@code <partition>:<offset>}), once a relay published it. */
    public Optional<String> positionOf(String activityId, String reservationId) {
        ReservationRecord record = record(new ActivityId(activityId), reservationId);
        return Optional.ofNullable(record == null ? null : record.position()).map(Object::toString);
    }

    private ReservationRecord record(ActivityId activity, String reservationId) {
        String stored = connection.sync().hget(RedisKeys.reservations(activity), reservationId);
        return stored == null ? null : ReservationRecord.decode(stored);
    }

    /** The id of the newest SLOWLOG entry (-1 when empty): commands logged later have larger ids. */
    public long newestSlowCommand() {
        List<Object> newest = connection.sync().slowlogGet(1);
        return newest.isEmpty() ? -1 : ((Number) ((List<?>) newest.getFirst()).get(0)).longValue();
    }

    /**
     * Durations in microseconds of the commands logged in SLOWLOG after {@code afterId} that named one of the sale's
     * keys; the server logs only commands slower than its {@code slowlog-log-slower-than}.
     */
    public List<Long> slowCommandsOfSale(String activityId, long afterId) {
        String tag = "{" + activityId + "}";
        List<Long> durations = new ArrayList<>();
        for (Object entry : connection.sync().slowlogGet(1000)) {
            List<?> fields = (List<?>) entry;
            long id = ((Number) fields.get(0)).longValue();
            boolean namesTheSale = ((List<?>) fields.get(3)).stream().anyMatch(arg -> String.valueOf(arg).contains(tag));
            if (id > afterId && namesTheSale) {
                durations.add(((Number) fields.get(2)).longValue());
            }
        }
        return durations;
    }

    public String serverVersion() {
        return connection.sync().info("server").lines()
                .filter(line -> line.startsWith("redis_version:"))
                .map(line -> line.substring("redis_version:".length()).trim())
                .findFirst().orElse("unknown");
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
