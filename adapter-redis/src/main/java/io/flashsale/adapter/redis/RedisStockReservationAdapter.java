package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.FilterShapes;
import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.ReplicaWait;
import io.flashsale.adapter.redis.internal.ReserveBatcher;
import io.flashsale.adapter.redis.internal.ReserveScriptCall;
import io.flashsale.adapter.redis.internal.ScriptReplies;
import io.flashsale.adapter.redis.internal.StockOverSlices;
import io.flashsale.adapter.redis.internal.WarmUpScriptCall;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.ActivityLedger;
import io.flashsale.domain.stock.SkuStock;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The hot path, its records and their moves on Redis: every move is one Lua script, so Redis serializes them as the
 * reference {@link io.flashsale.domain.stock.ActivityLedger} requires. Key layout: {@link RedisKeys}. Reserve attempts of one
 * sale that arrive while a call of it is in flight go together in its next call ({@link ReserveBatcher}, ADR 0068).
 * Thread-safe: many threads may share the one connection.
 * <p>
 * A sale in slices (ADR 109) is loaded in every slice, each with its share; an attempt is decided in the slice its id
 * names, and every later move and read of a reservation goes to the slice its id names too. Each slice writes its
 * accepted reservations to its own outbox; the outbox registry lists the activity, and {@link RedisReservationOutbox}
 * reads every slice's.
 */
public final class RedisStockReservationAdapter
        implements StockReservationPort, HeldReservationsPort, ReservationTransitionsPort {

    /** Attempts per reserve call at most, unless told otherwise (ADR 0068). */
    public static final int DEFAULT_MAX_BATCH = 64;

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript warmUp;
    private final RequestIndexDrop drop;
    private final ReserveBatcher reserve;
    private final LuaScript release;
    private final LuaScript confirm;
    private final LuaScript fail;
    private final LuaScript restore;
    private final LuaScript markPaid;
    private final LuaScript stock;
    private final String outboxRegistry;
    private final Consumer<ActivityId> returns;
    private final Consumer<ActivityId> accepted;
    private final boolean redisClock;
    private final FilterShapes filterShapes;
    private final SliceCounts sliceCounts;

    /** Registers warmed-up activities for the relays in the default registry {@link RedisKeys#outboxActivities()}. */
    public RedisStockReservationAdapter(StatefulRedisConnection<String, String> connection) {
        this(connection, RedisKeys.outboxActivities());
    }

    /**
     * @param outboxRegistry the set key a warm-up adds its activity to; the relays' {@link RedisReservationOutbox}
     *                       must read the same one
     */
    public RedisStockReservationAdapter(StatefulRedisConnection<String, String> connection, String outboxRegistry) {
        this(ConnectionCommands.of(connection), outboxRegistry, activityId -> { }, activityId -> { }, false,
                DEFAULT_MAX_BATCH);
    }

    /** Reserve calls answered once the master decided, with no WAIT. */
    RedisStockReservationAdapter(ConnectionCommands commands, String outboxRegistry, Consumer<ActivityId> returns,
                                 Consumer<ActivityId> accepted, boolean redisClock, int maxBatch) {
        this(commands, outboxRegistry, returns, accepted, redisClock, maxBatch, null);
    }

    /**
     * @param returns    told of every move that gives units back (release, restore), right after it
     * @param accepted   told of every accepted reservation, right after its outbox entry was written; must not block
     * @param redisClock true: the sale window is judged by Redis {@code TIME} (one clock for all instances); false:
     *                   by each request's instant, as the reference model does (tests that move the clock)
     * @param maxBatch   reserve attempts of one sale per script call at most; 1: every attempt a call of its own
     * @param replicaWait null: a reserve call is answered once the master decided; else after its WAIT returned, on
     *                    the connection it gives (ADR 0097)
     */
    RedisStockReservationAdapter(ConnectionCommands commands, String outboxRegistry, Consumer<ActivityId> returns,
                                 Consumer<ActivityId> accepted, boolean redisClock, int maxBatch,
                                 ReplicaWait replicaWait) {
        this(commands, outboxRegistry, returns, accepted, redisClock, maxBatch, replicaWait,
                new SliceCounts(commands.sync()));
    }

    /** @param sliceCounts the sales' slice counts, shared with the hot store's other adapters (its warm-up forgets) */
    RedisStockReservationAdapter(ConnectionCommands commands, String outboxRegistry, Consumer<ActivityId> returns,
                                 Consumer<ActivityId> accepted, boolean redisClock, int maxBatch,
                                 ReplicaWait replicaWait, SliceCounts sliceCounts) {
        this.redis = commands.sync();
        this.redisClock = redisClock;
        this.filterShapes = new FilterShapes(commands.async(), Clock.systemUTC());
        this.sliceCounts = sliceCounts;
        this.outboxRegistry = outboxRegistry;
        this.returns = returns;
        this.accepted = accepted;
        this.warmUp = LuaScript.load(redis, "warm_up");
        this.drop = new RequestIndexDrop(redis);
        LuaScript reserveScript = LuaScript.load(redis, "reserve");
        ReserveBatcher.ScriptCall reserveCall = replicaWait != null ? replicaWait.around(reserveScript)
                : (keys, args) -> reserveScript.<List<Object>>runAsync(commands.async(), ScriptOutputType.MULTI, keys,
                        args);
        this.reserve = new ReserveBatcher(reserveCall, maxBatch, commands.timeout());
        this.release = LuaScript.load(redis, "release");
        this.confirm = LuaScript.load(redis, "confirm");
        this.fail = LuaScript.load(redis, "fail");
        this.restore = LuaScript.load(redis, "restore");
        this.markPaid = LuaScript.load(redis, "mark_paid");
        this.stock = LuaScript.load(redis, "stock");
    }

    private static final long WARM_UP_DROP_UNFINISHED = 2;
    private static final long WARM_UP_BUCKETS_LEFT = 3;
    /**
     * Calls that may answer {@link #WARM_UP_BUCKETS_LEFT}: warm_up.lua looks at 256 buckets a call, so the most a sale
     * has (8,192, ADR 0100) take 32; twice that leaves room for a look begun again after the sale's meta went.
     */
    private static final int WARM_UP_LOOKS = 64;

    /**
     * Loads every slice of the sale with its share, slice 0 last: the sale's count is read from slice 0 ({@link
     * #slices}), so an instance that sees it loaded finds the other slices loaded too (unless a warm-up died
     * half-way; the next one loads what is missing).
     */
    @Override
    public List<SkuStock> warmUp(Activity activity) {
        List<SaleSlice> slices = WarmUpScriptCall.slicesOf(activity);
        Map<Integer, Long> loadedNow = new LinkedHashMap<>();
        for (SaleSlice slice : slices.reversed()) {
            loadedNow.put(slice.index(), loadedNow(activity, slice));
        }
        // Outside the script: the registry spans activities, so it has no place in one activity's slot.
        // Every warm-up adds it again, so a warm-up that died in between heals on the next one.
        redis.sadd(outboxRegistry, activity.id().value());
        // This instance sees its own warm-up at once; the others within SliceCounts.NOT_LOADED_MEMORY.
        sliceCounts.forget(activity.id());
        return stock(activity.id()).orElseThrow(() -> new IllegalStateException(
                "activity " + activity.id() + " is not ready right after warm-up (loaded now, by slice: " + loadedNow
                        + ")"));
    }

    /**
     * warm_up.lua's reply for one slice; an archive's or a rebuild's drop of the slice's request index left unfinished
     * (ADR 0102) is finished first, and while the script has buckets of the request index left to look at (ADR 0106)
     * it is called again, then the slice loaded.
     */
    private long loadedNow(Activity activity, SaleSlice slice) {
        String[] keys = WarmUpScriptCall.keys(slice);
        String[] arguments = WarmUpScriptCall.arguments(activity, slice);
        long loadedNow = warmUp.<Long>run(redis, ScriptOutputType.INTEGER, keys, arguments);
        int drops = 0;
        int looks = 0;
        while (loadedNow == WARM_UP_DROP_UNFINISHED && drops < 3
                || loadedNow == WARM_UP_BUCKETS_LEFT && looks < WARM_UP_LOOKS) {
            if (loadedNow == WARM_UP_DROP_UNFINISHED) {
                drops++;
                drop.finish(slice);
            } else {
                looks++;
            }
            loadedNow = warmUp.<Long>run(redis, ScriptOutputType.INTEGER, keys, arguments);
        }
        return loadedNow;
    }

    /** Slice 0's count, read once per sale and remembered ({@link SliceCounts}). */
    @Override
    public SaleSlices slices(ActivityId activityId) {
        return sliceCounts.of(activityId);
    }

    @Override
    public ReservationOutcome reserve(ReservationRequest request) {
        List<Object> reply = reserve.decide(ReserveScriptCall.Attempt.of(request, redisClock,
                filterShapes.hashedHere(request.id().slice())));
        if (ReserveScriptCall.namesAnotherSliceCount(reply)) {
            // Made for another count than the sale's: the count this instance remembers, if any, is not the sale's.
            sliceCounts.forget(request.activityId());
            return new ReservationOutcome.NotReady();
        }
        ReservationOutcome outcome = ReserveScriptCall.outcome(reply, request);
        if (outcome instanceof ReservationOutcome.Reserved) {
            accepted.accept(request.activityId());
        }
        return outcome;
    }

    /** The reserve calls sent so far and the attempts they carried. */
    ReserveBatcher.Figures reserveCalls() {
        return reserve.figures();
    }

    @Override
    public boolean release(ReservationId reservationId) {
        Long released = release.run(redis, ScriptOutputType.INTEGER, stockMovingKeys(reservationId),
                reservationId.value());
        return returned(reservationId, released == 1L);
    }

    @Override
    public boolean release(ReservationId reservationId, Instant cancelledAt) {
        if (cancelledAt == null) {
            throw new IllegalArgumentException("a cancellation needs its moment");
        }
        Long released = release.run(redis, ScriptOutputType.INTEGER, stockMovingKeys(reservationId),
                reservationId.value(), cancelledAt.toString());
        return returned(reservationId, released == 1L);
    }

    @Override
    public Optional<Instant> cancelledAt(ReservationId reservationId) {
        return record(reservationId).map(ReservationRecord::cancelledAt);
    }

    @Override
    public Optional<ReservationStatus> restore(PendingRestore order) {
        ReservationId reservationId = order.reservationId();
        SaleSlice slice = reservationId.slice();
        String[] keys = {RedisKeys.stock(slice), RedisKeys.holdings(slice), RedisKeys.reservations(slice),
                RedisKeys.requests(slice), RedisKeys.meta(slice)};
        String before = restore.run(redis, ScriptOutputType.VALUE, keys,
                RestoreArguments.of(order).toArray(String[]::new));
        returned(reservationId, "ORDERED".equals(before));
        return before.isEmpty() ? Optional.empty() : Optional.of(ReservationStatus.valueOf(before));
    }

    @Override
    public boolean markPaid(ReservationId reservationId) {
        String[] keys = {RedisKeys.reservations(reservationId.slice())};
        Long marked = markPaid.run(redis, ScriptOutputType.INTEGER, keys, reservationId.value());
        return marked == 1L;
    }

    private boolean returned(ReservationId reservationId, boolean moved) {
        if (moved) {
            returns.accept(reservationId.activityId());
        }
        return moved;
    }

    /**
     * The keys of a script that gives units back, in the reservation's slice: stock, holdings, reservations, the
     * in-flight index.
     */
    private static String[] stockMovingKeys(ReservationId reservationId) {
        SaleSlice slice = reservationId.slice();
        return new String[]{RedisKeys.stock(slice), RedisKeys.holdings(slice), RedisKeys.reservations(slice),
                RedisKeys.inFlight(slice)};
    }

    @Override
    public boolean confirm(ReservationId reservationId) {
        SaleSlice slice = reservationId.slice();
        String[] keys = {RedisKeys.stock(slice), RedisKeys.reservations(slice), RedisKeys.inFlight(slice)};
        Long confirmed = confirm.run(redis, ScriptOutputType.INTEGER, keys, reservationId.value());
        return confirmed == 1L;
    }

    @Override
    public boolean fail(ReservationId reservationId) {
        SaleSlice slice = reservationId.slice();
        String[] keys = {RedisKeys.stock(slice), RedisKeys.reservations(slice)};
        Long failed = fail.run(redis, ScriptOutputType.INTEGER, keys, reservationId.value());
        return failed == 1L;
    }

    @Override
    public Optional<Reservation> findReservation(ReservationId id) {
        return record(id).map(record -> record.toReservation(id));
    }

    private Optional<ReservationRecord> record(ReservationId id) {
        return ReservationRecord.read(redis.hget(RedisKeys.reservations(id.slice()), id.value()));
    }

    /** Each slice's ledgers read in one step each and summed; empty unless every slice is loaded. */
    @Override
    public Optional<List<SkuStock>> stock(ActivityId activityId) {
        SaleSlices slices = slices(activityId);
        List<List<SkuStock>> perSlice = new ArrayList<>(slices.count());
        for (SaleSlice slice : slices.of(activityId)) {
            Optional<List<SkuStock>> ledgers = stock(slice);
            if (ledgers.isEmpty()) {
                return Optional.empty();
            }
            perSlice.add(ledgers.get());
        }
        return Optional.of(slices.sliced() ? StockOverSlices.summed(perSlice) : perSlice.getFirst());
    }

    private Optional<List<SkuStock>> stock(SaleSlice slice) {
        String[] keys = {RedisKeys.meta(slice), RedisKeys.stock(slice)};
        List<Object> reply = stock.run(redis, ScriptOutputType.MULTI, keys);
        return ScriptReplies.stock(reply);
    }

    /** Read in the buyer's home slice, where every holding of theirs is (ADR 109). */
    @Override
    public Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId) {
        SaleSlices slices = slices(activityId);
        SaleSlice home = new SaleSlice(activityId, slices.homeOf(buyerId), slices);
        String skus = redis.hget(RedisKeys.meta(home), RedisKeys.META_SKUS);
        if (skus == null) {
            return Map.of();
        }
        List<SkuId> skuIds = Arrays.stream(skus.split(",")).map(SkuId::new).toList();
        String[] fields = skuIds.stream().map(sku -> RedisKeys.holdingField(buyerId, sku)).toArray(String[]::new);
        List<KeyValue<String, String>> units = redis.hmget(RedisKeys.holdings(home), fields);
        var held = new LinkedHashMap<SkuId, Long>();
        for (int i = 0; i < skuIds.size(); i++) {
            long value = units.get(i).hasValue() ? Long.parseLong(units.get(i).getValue()) : 0L;
            if (value != 0) {
                held.put(skuIds.get(i), value);
            }
        }
        return held;
    }
}
