package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Puts together a snapshot: one atomic reply of {@code reconcile_snapshot.lua} for a small sale, or, read in pages,
 * {@code reconcile_figures.lua} before and after, the holdings and the
 * reservation records read between them. A SKU whose version differs between the two figures moved meanwhile and gets
 * {@link HotSkuSnapshot#MOVING} as its version. The version is built exactly as {@code fs_version} in
 * {@code lib/ledger.lua} builds it: {@code <loadId>/<sku>:version}, 0 when missing.
 */
public final class SnapshotReply {

    private SnapshotReply() {
    }

    /**
     * The reply of {@code reconcile_figures.lua}: empty when the activity (or the slice) is not ready. {@code stock}:
     * the stock hash without the records stock transfers keep there, which the scripts leave out
     * ({@code fs_stock_without_transfers}); every figure below is read by its exact field name, a SKU's applied
     * adjustments by {@code <sku>:adj:}. {@code tracksInFlight}: loaded by scripts that keep each SKU's sum of
     * holdings and the in-flight index.
     */
    public record Figures(List<String> skus, String loadId, Map<String, String> stock, boolean tracksInFlight) {

        public static Optional<Figures> parse(List<Object> reply) {
            if (reply.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new Figures(List.of(ScriptReplies.text(reply, 0).split(",")),
                    ScriptReplies.text(reply, 1), pairs(reply.get(2)),
                    reply.size() > 3 && "1".equals(ScriptReplies.text(reply, 3))));
        }

        public String version(String sku) {
            return loadId + "/" + stock.getOrDefault(sku + ":version", "0");
        }
    }

    /** One reservation's record as read by id. */
    public record Record(String id, ReservationRecord stored) {

        /** @throws IllegalStateException when the stored value is not a record */
        public static Record of(String id, String stored) {
            try {
                return new Record(id, ReservationRecord.decode(stored));
            } catch (IllegalStateException unreadable) {
                throw new IllegalStateException("reservation " + id + " cannot be read back", unreadable);
            }
        }

        public ReservationStatus status() {
            return stored.status();
        }
    }

    /**
     * The reply of {@code reconcile_snapshot.lua}, one atomic look: {@code skus, loadId, stock, holdings, records,
     * outbox ids}; every SKU is steady.
     */
    public static HotStoreSnapshot parseAtomic(ActivityId activityId, List<Object> reply) {
        Figures figures = new Figures(List.of(ScriptReplies.text(reply, 0).split(",")), ScriptReplies.text(reply, 1),
                pairs(reply.get(2)), false);
        Set<String> waiting = new HashSet<>();
        for (Object id : (List<?>) reply.get(5)) {
            waiting.add(String.valueOf(id));
        }
        List<Record> records = new ArrayList<>();
        for (Object item : (List<?>) reply.get(4)) {
            List<?> fields = (List<?>) item;
            if (fields.size() != 2) {
                throw new IllegalStateException("reservation entry of " + fields.size() + " fields: " + fields);
            }
            records.add(Record.of(String.valueOf(fields.get(0)), String.valueOf(fields.get(1))));
        }
        return assemble(activityId, figures, figures, pairs(reply.get(3)), records, waiting);
    }

    /** @param holdings every holding of the sale, or null when they were left out (compared by each SKU's sum) */
    public static HotStoreSnapshot assemble(ActivityId activityId, Figures before, Figures after,
                                            Map<String, String> holdings, List<Record> records, Set<String> waiting) {
        List<Held> held = new ArrayList<>();
        for (Record record : records) {
            held.add(Held.of(record, waiting.contains(record.id())));
        }
        Map<SkuId, HotSkuSnapshot> skus = new LinkedHashMap<>();
        for (String sku : before.skus()) {
            boolean steady = after.skus().contains(sku) && before.version(sku).equals(after.version(sku));
            String version = steady ? before.version(sku) : HotSkuSnapshot.MOVING;
            SkuId skuId = new SkuId(sku);
            skus.put(skuId, sku(skuId, before.stock(), holdings, held, version));
        }
        return new HotStoreSnapshot(activityId, skus);
    }

    private static HotSkuSnapshot sku(SkuId skuId, Map<String, String> stock, Map<String, String> holdings,
                                      List<Held> held, String version) {
        Map<BuyerId, Long> heldUnits = holdings == null ? Map.of() : holdingsOf(skuId, holdings);
        String sku = skuId.value();
        long segments = number(stock.get(sku + ":segments"));
        long available = 0;
        for (int s = 1; s <= segments; s++) {
            available += number(stock.get(sku + ":avail:" + s));
        }
        String appliedPrefix = sku + ":adj:";
        Set<Long> applied = new HashSet<>();
        stock.keySet().stream().filter(field -> field.startsWith(appliedPrefix))
                .forEach(field -> applied.add(Long.parseLong(field.substring(appliedPrefix.length()))));
        List<HotReservation> reservations = new ArrayList<>();
        for (Held reservation : held) {
            reservation.lines.stream().filter(line -> line.skuId().equals(skuId)).findFirst()
                    .ifPresent(line -> reservations.add(reservation.asSeenFrom(line)));
        }
        // A sale loaded before the scripts kept the sum has none: the holdings read are then their own sum.
        String heldField = stock.get(sku + ":held");
        long heldSum = heldField != null ? number(heldField)
                : heldUnits.values().stream().mapToLong(Long::longValue).sum();
        return new HotSkuSnapshot(skuId, new LedgerFigures(number(stock.get(sku + ":total")),
                number(stock.get(sku + ":reserved")), number(stock.get(sku + ":sold")), available),
                heldUnits, reservations, applied, version, heldSum, holdings != null);
    }

    /** Each buyer's units of the SKU among holdings fields {@code <buyer>:<sku>}, zero entries left out. */
    public static Map<BuyerId, Long> holdingsOf(SkuId skuId, Map<String, String> holdings) {
        Map<BuyerId, Long> heldUnits = new HashMap<>();
        holdings.forEach((field, units) -> {
            int colon = field.indexOf(':');
            long value = number(units);
            if (colon > 0 && field.substring(colon + 1).equals(skuId.value()) && value != 0) {
                heldUnits.put(new BuyerId(field.substring(0, colon)), value);
            }
        });
        return heldUnits;
    }

    /** One reservation record and whether its event waits in the outbox. */
    private record Held(ReservationId id, BuyerId buyer, ReservationStatus status, List<ReservationLine> lines,
                        Instant reservedAt, Instant cancelledAt, boolean inOutbox) {

        static Held of(Record record, boolean inOutbox) {
            ReservationRecord stored = record.stored();
            return new Held(new ReservationId(record.id()), stored.buyer(), stored.status(), stored.lines(),
                    stored.reservedAt(), stored.cancelledAt(), inOutbox);
        }

        HotReservation asSeenFrom(ReservationLine line) {
            return new HotReservation(id, buyer, status, line.quantity(), reservedAt, cancelledAt, inOutbox);
        }
    }

    private static Map<String, String> pairs(Object flat) {
        List<?> list = (List<?>) flat;
        Map<String, String> pairs = new HashMap<>();
        for (int i = 0; i + 1 < list.size(); i += 2) {
            pairs.put(String.valueOf(list.get(i)), String.valueOf(list.get(i + 1)));
        }
        return pairs;
    }

    private static long number(String value) {
        return value == null ? 0 : Long.parseLong(value);
    }
}
