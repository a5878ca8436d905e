package io.flashsale.adapter.redis.internal;

import io.flashsale.application.port.out.HotStoreSnapshot;
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
 * Reads the reply of {@code reconcile_snapshot.lua} into one snapshot per SKU. The fingerprint is built from the raw
 * stored strings exactly as {@code reconcile_repair.lua} builds it: {@code total|reserved|sold}, '-' for a missing one.
 */
public final class SnapshotReply {

    private static final String MISSING = "-";
    private static final int RECORD_FIELDS = 6;

    private SnapshotReply() {
    }

    /** Empty when the activity is not ready in Redis. */
    public static Optional<HotStoreSnapshot> parse(ActivityId activityId, List<Object> reply) {
        if (reply.isEmpty()) {
            return Optional.empty();
        }
        String skuList = ScriptReplies.text(reply, 0);
        Map<String, String> stock = pairs(reply.get(1));
        Map<String, String> holdings = pairs(reply.get(2));
        Set<String> waiting = new HashSet<>();
        for (Object id : (List<?>) reply.get(4)) {
            waiting.add(String.valueOf(id));
        }
        List<Held> held = records(reply.get(3), waiting);
        Map<SkuId, HotSkuSnapshot> skus = new LinkedHashMap<>();
        for (String sku : skuList.split(",")) {
            SkuId skuId = new SkuId(sku);
            skus.put(skuId, sku(skuId, stock, holdings, held));
        }
        return Optional.of(new HotStoreSnapshot(activityId, skus));
    }

    private static HotSkuSnapshot sku(SkuId skuId, Map<String, String> stock, Map<String, String> holdings,
                                      List<Held> held) {
        String sku = skuId.value();
        String total = stock.get(sku + ":total");
        String reserved = stock.get(sku + ":reserved");
        String sold = stock.get(sku + ":sold");
        long segments = number(stock.get(sku + ":segments"));
        long available = 0;
        for (int s = 1; s <= segments; s++) {
            available += number(stock.get(sku + ":avail:" + s));
        }
        String appliedPrefix = sku + ":adj:";
        Set<Long> applied = new HashSet<>();
        stock.keySet().stream().filter(field -> field.startsWith(appliedPrefix))
                .forEach(field -> applied.add(Long.parseLong(field.substring(appliedPrefix.length()))));
        Map<BuyerId, Long> heldUnits = new HashMap<>();
        holdings.forEach((field, units) -> {
            int colon = field.indexOf(':');
            long value = number(units);
            if (colon > 0 && field.substring(colon + 1).equals(sku) && value != 0) {
                heldUnits.put(new BuyerId(field.substring(0, colon)), value);
            }
        });
        List<HotReservation> reservations = new ArrayList<>();
        for (Held reservation : held) {
            reservation.lines.stream().filter(line -> line.skuId().equals(skuId)).findFirst()
                    .ifPresent(line -> reservations.add(reservation.asSeenFrom(line)));
        }
        String fingerprint = orMissing(total) + "|" + orMissing(reserved) + "|" + orMissing(sold);
        return new HotSkuSnapshot(skuId, new LedgerFigures(number(total), number(reserved), number(sold), available),
                heldUnits, reservations, applied, fingerprint);
    }

    /** One reservation record of the reply, its lines decoded. */
    private record Held(ReservationId id, BuyerId buyer, ReservationStatus status, List<ReservationLine> lines,
                        Instant reservedAt, Instant cancelledAt, boolean inOutbox) {

        HotReservation asSeenFrom(ReservationLine line) {
            return new HotReservation(id, buyer, status, line.quantity(), reservedAt, cancelledAt, inOutbox);
        }
    }

    private static List<Held> records(Object reply, Set<String> waiting) {
        List<Held> held = new ArrayList<>();
        for (Object item : (List<?>) reply) {
            List<?> record = (List<?>) item;
            if (record.size() != RECORD_FIELDS) {
                throw new IllegalStateException("reservation record of " + record.size() + " fields: " + record);
            }
            String id = String.valueOf(record.get(0));
            try {
                String cancelledAt = String.valueOf(record.get(5));
                held.add(new Held(new ReservationId(id), new BuyerId(String.valueOf(record.get(1))),
                        ReservationStatus.valueOf(String.valueOf(record.get(2))),
                        ReservationLines.decode(String.valueOf(record.get(3))),
                        Instant.parse(String.valueOf(record.get(4))),
                        cancelledAt.isEmpty() ? null : Instant.parse(cancelledAt), waiting.contains(id)));
            } catch (RuntimeException unreadable) {
                throw new IllegalStateException("reservation " + id + " cannot be read back: " + record, unreadable);
            }
        }
        return held;
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

    private static String orMissing(String value) {
        return value == null ? MISSING : value;
    }
}
