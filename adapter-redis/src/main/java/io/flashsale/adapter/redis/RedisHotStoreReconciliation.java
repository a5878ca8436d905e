package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.OutboxRedrive;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.adapter.redis.internal.ReadPace;
import io.flashsale.adapter.redis.internal.SnapshotReply;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.KeyValue;
import io.lettuce.core.MapScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Reconciliation on Redis. The snapshot is read in pages ({@link PagedReads}) between two reads of the per-SKU figures
 * and versions ({@code reconcile_figures.lua}, whose cost follows the number of SKUs), so no command it sends costs
 * in proportion to buyers or reservations; a SKU whose version moved in between is reported {@code MOVING}. Every write
 * is one Lua script over the activity's own keys ({@link RedisKeys}); a repair applies only on the version it was
 * computed from and writes only the holdings that change. Thread-safe: many threads may share the one connection.
 * <p>
 * The look, the holdings, the audit and the repair are done over one slice's keys ({@link SliceReconciliationPort},
 * ADR 110): a slice of a sale in slices is reconciled alone, against its allotment. The activity's forms are slice 0
 * of a sale of one slice, whose keys are exactly the activity's ({@link RedisKeys#sliceZero}: slice 0's tag is the
 * activity id, so {@code fs:{a}:meta} and the rest, {@code SliceTagsTest} pins it), so one implementation serves both.
 * The stock transfers' records in a slice's stock hash ({@code <sku>:xout:<id>}, {@code <sku>:xin:<id>}) are left out
 * of every look by the scripts, and a repair leaves them as they are.
 */
public final class RedisHotStoreReconciliation implements HotStoreReconciliationPort, SliceReconciliationPort {

    private final RedisClusterCommands<String, String> redis;
    /** Fields and entries one atomic snapshot may read: a few milliseconds, whatever the sale. */
    static final int ATOMIC_SNAPSHOT_LIMIT = 2000;

    private final PagedReads pages;
    private final LuaScript smallSnapshot;
    private final LuaScript figures;
    private final LuaScript repair;
    private final OutboxRedrive redrive;
    private final LuaScript settledScript;
    private final Consumer<ActivityId> returns;

    public RedisHotStoreReconciliation(StatefulRedisConnection<String, String> connection) {
        this(connection, 0);
    }

    /**
     * @param readPace how the paged reads of a look, the audit and the holdings yield between their pages: after each
     *                 page a pause this many times as long as the page took (0: none)
     */
    public RedisHotStoreReconciliation(StatefulRedisConnection<String, String> connection, double readPace) {
        this(connection.sync(), activityId -> { }, new ReadPace(readPace));
    }

    /** @param returns told after every repair: it may make units buyable again */
    RedisHotStoreReconciliation(RedisClusterCommands<String, String> redis, Consumer<ActivityId> returns,
                                ReadPace pace) {
        this.returns = returns;
        this.redis = redis;
        this.pages = new PagedReads(redis, pace);
        this.smallSnapshot = LuaScript.load(redis, "reconcile_snapshot");
        this.figures = LuaScript.load(redis, "reconcile_figures");
        this.repair = LuaScript.load(redis, "reconcile_repair");
        this.redrive = new OutboxRedrive(redis);
        this.settledScript = LuaScript.load(redis, "reconcile_settled");
    }

    /** The sale's one ledger: slice 0 of a sale of one slice, whose keys are the activity's. */
    @Override
    public Optional<HotStoreSnapshot> snapshot(ActivityId activityId) {
        return snapshot(RedisKeys.sliceZero(activityId));
    }

    /**
     * A slice of at most {@link #ATOMIC_SNAPSHOT_LIMIT} fields and entries in one atomic step
     * ({@code reconcile_snapshot.lua}); a bigger one in pages ({@link #pagedSnapshot}). Every read is of the slice's
     * own keys; the snapshot names the slice's activity.
     */
    @Override
    public Optional<HotStoreSnapshot> snapshot(SaleSlice slice) {
        String[] keys = {RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.holdings(slice),
                RedisKeys.reservations(slice), RedisKeys.outbox(slice)};
        List<Object> reply = smallSnapshot.run(redis, ScriptOutputType.MULTI, keys, RedisKeys.OUTBOX_GROUP,
                Integer.toString(ATOMIC_SNAPSHOT_LIMIT));
        if (reply.isEmpty()) {
            return Optional.empty();
        }
        if (reply.size() == 1 && "TOO_BIG".equals(String.valueOf(reply.getFirst()))) {
            return pagedSnapshot(slice);
        }
        return Optional.of(SnapshotReply.parseAtomic(slice.activityId(), reply));
    }

    Optional<HotStoreSnapshot> pagedSnapshot(ActivityId activityId) {
        return pagedSnapshot(RedisKeys.sliceZero(activityId));
    }

    /**
     * Figures, then the outbox's unacknowledged entries and the reservations that count (RESERVED, FAILED, CANCELLED
     * by the buyer; ORDERED ones are read by id, see {@link #reservations}), then the figures again. A sale loaded by
     * the scripts that keep the in-flight index and each SKU's sum of holdings (ADR 43) costs O(SKUs + reservations
     * in flight): the reservations come from the index, and the holdings are left out ({@link #withHoldings} reads
     * them when their sum disagrees). An older sale is read whole: every status field and every holding.
     */
    Optional<HotStoreSnapshot> pagedSnapshot(SaleSlice slice) {
        Optional<SnapshotReply.Figures> before = figures(slice);
        if (before.isEmpty()) {
            return Optional.empty();
        }
        boolean tracked = before.get().tracksInFlight();
        Set<String> waiting = pages.unacknowledged(RedisKeys.outbox(slice), RedisKeys.OUTBOX_GROUP);
        String reservations = RedisKeys.reservations(slice);
        Set<String> ids = tracked ? pages.hash(RedisKeys.inFlight(slice)).keySet()
                : pages.reservationIds(reservations, SNAPSHOT_STATUSES::contains);
        List<SnapshotReply.Record> records = pages.records(reservations, ids).stream()
                .filter(record -> SNAPSHOT_STATUSES.contains(record.status()))
                .filter(record -> record.status() != ReservationStatus.CANCELLED
                        || record.stored().cancelledAt() != null)
                .toList();
        Map<String, String> holdings = tracked ? null : pages.hash(RedisKeys.holdings(slice));
        Optional<SnapshotReply.Figures> after = figures(slice);
        if (after.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(SnapshotReply.assemble(slice.activityId(), before.get(), after.get(), holdings, records,
                waiting));
    }

    private static final Set<ReservationStatus> SNAPSHOT_STATUSES = Set.of(ReservationStatus.RESERVED,
            ReservationStatus.FAILED, ReservationStatus.CANCELLED);

    private Optional<SnapshotReply.Figures> figures(SaleSlice slice) {
        String[] keys = {RedisKeys.meta(slice), RedisKeys.stock(slice)};
        List<Object> reply = figures.run(redis, ScriptOutputType.MULTI, keys);
        return SnapshotReply.Figures.parse(reply);
    }

    @Override
    public HotSkuSnapshot withHoldings(ActivityId activityId, HotSkuSnapshot look) {
        return withHoldings(RedisKeys.sliceZero(activityId), look);
    }

    /**
     * Every holding of the look's SKU in the slice by HSCAN with MATCH, then the slice's figures again: moved meanwhile,
     * it is MOVING.
     */
    @Override
    public HotSkuSnapshot withHoldings(SaleSlice slice, HotSkuSnapshot look) {
        if (look.holdingsRead()) {
            return look;
        }
        SkuId skuId = look.skuId();
        Map<String, String> fields = pages.hash(RedisKeys.holdings(slice), "*:" + skuId.value());
        Optional<SnapshotReply.Figures> after = figures(slice);
        boolean steady = after.isPresent() && after.get().skus().contains(skuId.value())
                && after.get().version(skuId.value()).equals(look.version());
        return look.withHoldings(SnapshotReply.holdingsOf(skuId, fields), steady ? look.version()
                : HotSkuSnapshot.MOVING);
    }

    @Override
    public Optional<HoldingsSlice> auditHoldings(ActivityId activityId, HotSkuSnapshot look, int pages) {
        return auditHoldings(RedisKeys.sliceZero(activityId), look, pages);
    }

    /**
     * HSCAN with MATCH {@code *:<sku>} over the sale slice's holdings, {@link PagedReads#PAGE} buckets a call, from the
     * cursor kept in the slice's own {@link RedisKeys#holdingsAudit(SaleSlice)}, then the slice's figures again. The
     * cursor moves on only when the SKU held still (a page range that is not judged is read again next time), so every
     * holding present through a cycle is judged in a steady stretch of it. Two passes at once read the same pages and
     * write the same cursor; nothing is skipped.
     */
    @Override
    public Optional<HoldingsSlice> auditHoldings(SaleSlice slice, HotSkuSnapshot look, int pages) {
        if (look.holdingsRead() || !look.steady() || pages < 1) {
            return Optional.empty();
        }
        String sku = look.skuId().value();
        String cursors = RedisKeys.holdingsAudit(slice);
        String from = redis.hget(cursors, sku);
        ScanCursor cursor = from == null || from.equals("0") ? ScanCursor.INITIAL : ScanCursor.of(from);
        ScanArgs args = ScanArgs.Builder.matches("*:" + sku).limit(PagedReads.PAGE);
        Map<String, String> fields = new HashMap<>();
        boolean cycleEnded = false;
        for (int page = 0; page < pages && !cycleEnded; page++) {
            long started = System.nanoTime();
            MapScanCursor<String, String> step = redis.hscan(RedisKeys.holdings(slice), cursor, args);
            fields.putAll(step.getMap());
            cursor = step;
            cycleEnded = step.isFinished();
            this.pages.pace().after(started);
        }
        Optional<SnapshotReply.Figures> after = figures(slice);
        boolean steady = after.isPresent() && after.get().skus().contains(sku)
                && after.get().version(sku).equals(look.version());
        if (steady) {
            redis.hset(cursors, sku, cycleEnded ? "0" : cursor.getCursor());
        }
        return Optional.of(new HoldingsSlice(SnapshotReply.holdingsOf(look.skuId(), fields), steady, cycleEnded));
    }

    /** In the slice each id names (ADR 109), one call per slice and page. */
    @Override
    public void settled(ActivityId activityId, Map<ReservationId, ReservationStatus> seen) {
        ReservationsBySlice.group(seen.entrySet(), Map.Entry::getKey).forEach((slice, all) -> {
            String[] keys = {RedisKeys.inFlight(slice), RedisKeys.reservations(slice)};
            for (int from = 0; from < all.size(); from += PagedReads.PAGE) {
                List<String> args = new ArrayList<>();
                for (Map.Entry<ReservationId, ReservationStatus> entry
                        : all.subList(from, Math.min(all.size(), from + PagedReads.PAGE))) {
                    args.add(entry.getKey().value());
                    args.add(entry.getValue().name());
                }
                settledScript.run(redis, ScriptOutputType.INTEGER, keys, args.toArray(String[]::new));
            }
        });
    }

    /**
     * As {@code restore.lua} finds each order (fs_restore_find), in the slice its id names (ADR 109): its record's
     * status (a restored order's letter included), else ORDERED when the request's entry names it. Read in pages, not
     * atomically: the reconciler guards what it read by the SKU's version, which every restore changes.
     */
    @Override
    public Map<ReservationId, ReservationStatus> restoreStatuses(ActivityId activityId, List<PendingRestore> owed) {
        Map<ReservationId, ReservationStatus> held = new HashMap<>();
        Map<SaleSlice, List<PendingRestore>> bySlice = owed.stream().collect(Collectors.groupingBy(
                restore -> restore.reservationId().slice(), LinkedHashMap::new, Collectors.toList()));
        bySlice.forEach((slice, orders) -> {
            for (int from = 0; from < orders.size(); from += PagedReads.PAGE) {
                held.putAll(restoreStatuses(slice, orders.subList(from,
                        Math.min(orders.size(), from + PagedReads.PAGE))));
            }
        });
        return held;
    }

    private Map<ReservationId, ReservationStatus> restoreStatuses(SaleSlice slice, List<PendingRestore> page) {
        Map<ReservationId, ReservationStatus> held = new HashMap<>();
        List<KeyValue<String, String>> records = redis.hmget(RedisKeys.reservations(slice),
                page.stream().map(restore -> restore.reservationId().value()).toArray(String[]::new));
        List<String> requests = RedisRequestIndex.entries(redis, slice, page.stream()
                .map(restore -> RedisKeys.requestField(restore.buyerId(), restore.requestId())).toList());
        for (int i = 0; i < page.size(); i++) {
            PendingRestore restore = page.get(i);
            ReservationId id = restore.reservationId();
            if (records.get(i).hasValue()) {
                held.put(id, ReservationRecord.statusOf(records.get(i).getValue()));
            } else if (requests.get(i) != null && id.equals(RedisKeys.requestedReservation(slice,
                    restore.requestId(), requests.get(i)))) {
                held.put(id, ReservationStatus.ORDERED);
            }
        }
        return held;
    }

    @Override
    public LedgerRepairResult repair(ActivityId activityId, LedgerRepair repair) {
        return repair(RedisKeys.sliceZero(activityId), repair);
    }

    /**
     * {@code reconcile_repair.lua} over the slice's keys; the activity is told after it (its units may be buyable
     * again), whichever slice was repaired, as every return of units is announced by the activity.
     */
    @Override
    public LedgerRepairResult repair(SaleSlice slice, LedgerRepair repair) {
        String[] keys = {RedisKeys.meta(slice), RedisKeys.stock(slice), RedisKeys.holdings(slice)};
        List<String> args = new ArrayList<>(List.of(repair.skuId().value(), repair.version(),
                Long.toString(repair.figures().total()), Long.toString(repair.figures().reserved()),
                Long.toString(repair.figures().sold()), Long.toString(repair.figures().available()),
                Integer.toString(repair.limit()), Integer.toString(repair.segments()),
                repair.heldUnits().isPresent() ? Long.toString(repair.heldUnits().getAsLong()) : "",
                Integer.toString(repair.adjustmentsApplied().size())));
        repair.adjustmentsApplied().stream().sorted().forEach(id -> args.add(Long.toString(id)));
        repair.holdings().forEach((buyer, units) -> {
            args.add(buyer.value());
            args.add(Long.toString(units));
        });
        String result = this.repair.run(redis, ScriptOutputType.VALUE, keys, args.toArray(String[]::new));
        returns.accept(slice.activityId());
        return LedgerRepairResult.valueOf(result);
    }

    @Override
    public boolean redrive(ReservationId reservationId) {
        return redrive.redrive(reservationId, OutboxRedrive.ANY_POSITION, Duration.ZERO);
    }


}
