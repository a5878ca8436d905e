package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.LuaScript;
import io.flashsale.adapter.redis.internal.PagedReads;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The batch side of the hot store: one HMGET to read a batch, one script to settle it ({@code settle_batch.lua}) or to
 * give a batch of closed orders' units back ({@code restore_batch.lua}). A batch of a sale in slices (ADR 109) is cut
 * by the slice each id names: one read or script call per slice (and chunk), on that slice's keys, the answers merged.
 */
final class RedisHotStoreSettlement implements HotStoreSettlementPort {

    /**
     * Reservations per script call. A batch of 500 in one call took up to 19 ms of Redis in the 1,000,000-reservation
     * benchmark (docs/reconciliation.md), a stall for every buyer of every sale on that server; chunks keep each call
     * near the 5 ms issue #8 allows. Chunks are not one atomic step: each reservation's move is its own and a
     * settled one is left alone when a batch is settled again, so a batch cut short is finished by its retry.
     */
    static final int CHUNK = PagedReads.PAGE;

    private final RedisClusterCommands<String, String> redis;
    private final LuaScript settleBatch;
    private final LuaScript restoreBatch;

    private final Consumer<ActivityId> returns;

    /** @param returns told after every batch restore: units of the activity may be buyable again */
    RedisHotStoreSettlement(RedisClusterCommands<String, String> redis, Consumer<ActivityId> returns) {
        this.redis = redis;
        this.returns = returns;
        this.settleBatch = LuaScript.load(redis, "settle_batch");
        this.restoreBatch = LuaScript.load(redis, "restore_batch");
    }

    @Override
    public Map<ReservationId, HeldStatus> statuses(ActivityId activityId, List<ReservationId> reservationIds) {
        Map<ReservationId, HeldStatus> held = new HashMap<>();
        reservationIds.forEach(id -> requireOf(activityId, id));
        ReservationsBySlice.group(reservationIds).forEach((slice, ids) -> held.putAll(statuses(slice, ids)));
        return held;
    }

    private Map<ReservationId, HeldStatus> statuses(SaleSlice slice, List<ReservationId> reservationIds) {
        Map<ReservationId, HeldStatus> held = new HashMap<>();
        String[] fields = reservationIds.stream().map(ReservationId::value).toArray(String[]::new);
        List<KeyValue<String, String>> values = redis.hmget(RedisKeys.reservations(slice), fields);
        for (int i = 0; i < reservationIds.size(); i++) {
            // A restored order's letter is no record: the pipeline finds its order in the database.
            int at = i;
            ReservationRecord.read(values.get(i).getValueOrElse(null)).ifPresent(record ->
                    held.put(reservationIds.get(at), new HeldStatus(record.status(), record.cancelledAt())));
        }
        return held;
    }

    @Override
    public Map<ReservationId, ReservationStatus> settle(ActivityId activityId, List<ReservationId> confirmed,
                                                        List<ReservationId> failed) {
        List<ReservationId> all = new ArrayList<>(confirmed);
        all.addAll(failed);
        all.forEach(id -> requireOf(activityId, id)); // the whole batch before any chunk reaches Redis
        Map<SaleSlice, List<ReservationId>> confirmedBySlice = ReservationsBySlice.group(confirmed);
        Map<SaleSlice, List<ReservationId>> failedBySlice = ReservationsBySlice.group(failed);
        Set<SaleSlice> slices = new LinkedHashSet<>(confirmedBySlice.keySet());
        slices.addAll(failedBySlice.keySet());
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        for (SaleSlice slice : slices) {
            before.putAll(settle(slice, confirmedBySlice.getOrDefault(slice, List.of()),
                    failedBySlice.getOrDefault(slice, List.of())));
        }
        return before;
    }

    /** The slice's share of a batch, in chunks: the confirmed ones first, as settle_batch.lua takes them. */
    private Map<ReservationId, ReservationStatus> settle(SaleSlice slice, List<ReservationId> confirmed,
                                                         List<ReservationId> failed) {
        List<ReservationId> all = new ArrayList<>(confirmed);
        all.addAll(failed);
        String[] keys = {RedisKeys.stock(slice), RedisKeys.holdings(slice), RedisKeys.reservations(slice),
                RedisKeys.inFlight(slice)};
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        for (int from = 0; from < all.size(); from += CHUNK) {
            List<ReservationId> chunk = all.subList(from, Math.min(all.size(), from + CHUNK));
            int confirmedInChunk = Math.max(0, Math.min(confirmed.size() - from, chunk.size()));
            String[] args = new String[chunk.size() + 1];
            args[0] = Integer.toString(confirmedInChunk);
            for (int i = 0; i < chunk.size(); i++) {
                args[i + 1] = chunk.get(i).value();
            }
            before.putAll(statusesBefore(settleBatch, keys, chunk, args));
        }
        return before;
    }

    @Override
    public Map<ReservationId, ReservationStatus> restore(ActivityId activityId, List<PendingRestore> restores) {
        if (restores.isEmpty()) {
            return new HashMap<>();
        }
        // The whole batch before any chunk reaches Redis (PendingRestore checked each final status).
        restores.forEach(restore -> requireOf(activityId, restore.reservationId()));
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        ReservationsBySlice.group(restores, PendingRestore::reservationId)
                .forEach((slice, orders) -> before.putAll(restore(slice, orders)));
        returns.accept(activityId);
        return before;
    }

    private Map<ReservationId, ReservationStatus> restore(SaleSlice slice, List<PendingRestore> restores) {
        String[] keys = {RedisKeys.stock(slice), RedisKeys.holdings(slice), RedisKeys.reservations(slice),
                RedisKeys.requests(slice), RedisKeys.meta(slice)};
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        for (int from = 0; from < restores.size(); from += CHUNK) {
            List<PendingRestore> chunk = restores.subList(from, Math.min(restores.size(), from + CHUNK));
            List<String> args = new ArrayList<>();
            chunk.forEach(restore -> args.addAll(RestoreArguments.of(restore)));
            before.putAll(statusesBefore(restoreBatch, keys,
                    chunk.stream().map(PendingRestore::reservationId).toList(), args.toArray(String[]::new)));
        }
        return before;
    }

    /** Runs a batch script whose reply is the status each reservation had before it, in the order of {@code ids}. */
    private Map<ReservationId, ReservationStatus> statusesBefore(LuaScript script, String[] keys,
                                                                 List<ReservationId> ids, String[] args) {
        List<Object> reply = script.run(redis, ScriptOutputType.MULTI, keys, args);
        if (reply.size() != ids.size()) {
            throw new IllegalStateException(script.name() + " answered " + reply.size() + " statuses for "
                    + ids.size());
        }
        Map<ReservationId, ReservationStatus> before = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            String status = String.valueOf(reply.get(i));
            if (!status.isEmpty()) {
                before.put(ids.get(i), ReservationStatus.valueOf(status));
            }
        }
        return before;
    }

    private static ReservationId requireOf(ActivityId activityId, ReservationId id) {
        // All keys of one call share the activity's hash slot: a foreign id would be read or written in the wrong one.
        if (!id.activityId().equals(activityId)) {
            throw new IllegalArgumentException("reservation " + id + " is not of activity " + activityId);
        }
        return id;
    }
}
