package io.flashsale.domain.order;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.shared.Require;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides which reservations of a batch become orders, as placing them one at a time in batch order would: a
 * reservation naming a SKU the sale does not offer is refused as UNKNOWN_ITEM; otherwise, line by line in SKU order,
 * the buyer's units plus the line must stay within the SKU's limit (else LIMIT_EXCEEDED) and the SKU must have the
 * units left (else OUT_OF_STOCK). All lines or none: a refused reservation takes nothing, and the ones after it see
 * the books as if it had never come. The caller holds the rows these figures came from locked while it writes the
 * result, so the sums it writes (one per SKU, one per buyer and SKU) are exactly what the placed orders took.
 */
public final class OrderAllocation {

    /** Lines are weighed in this order, the order the database locks and updates rows in. */
    public static final Comparator<ReservationLine> LINE_ORDER = Comparator.comparing(line -> line.skuId().value());

    private OrderAllocation() {
    }

    /** A SKU of one sale. */
    public record SkuKey(ActivityId activityId, SkuId skuId) {

        public SkuKey {
            Require.present(activityId, "activityId");
            Require.present(skuId, "skuId");
        }
    }

    /** One buyer's units of one SKU of one sale. */
    public record PurchaseKey(ActivityId activityId, BuyerId buyerId, SkuId skuId) {

        public PurchaseKey {
            Require.present(activityId, "activityId");
            Require.present(buyerId, "buyerId");
            Require.present(skuId, "skuId");
        }

        public SkuKey sku() {
            return new SkuKey(activityId, skuId);
        }
    }

    /**
     * What the database of record says of a SKU before the batch.
     *
     * @param remaining units still for sale ({@code stock - sold}), never negative
     * @param limit     the most units one buyer may hold
     */
    public record SkuTerms(long remaining, int limit) {

        public SkuTerms {
            if (remaining < 0) {
                throw new IllegalArgumentException("remaining must not be negative: " + remaining);
            }
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be positive: " + limit);
            }
        }
    }

    /** What one reservation of the batch comes to. */
    public sealed interface Decision {

        Reservation reservation();

        record Place(Reservation reservation) implements Decision {
        }

        record Refuse(Reservation reservation, OrderRefusal reason) implements Decision {

            public Refuse {
                Require.present(reason, "reason");
            }
        }
    }

    /**
     * @param decisions     one per reservation, in batch order
     * @param soldBySku     units the placed orders take from each SKU (only SKUs with a placed line)
     * @param purchaseAdded units the placed orders add to each buyer's purchase (only keys with a placed line)
     */
    public record Result(List<Decision> decisions, Map<SkuKey, Long> soldBySku, Map<PurchaseKey, Long> purchaseAdded) {

        public Result {
            decisions = List.copyOf(decisions);
            soldBySku = Map.copyOf(soldBySku);
            purchaseAdded = Map.copyOf(purchaseAdded);
        }

        public List<Reservation> placed() {
            return decisions.stream().filter(Decision.Place.class::isInstance).map(Decision::reservation).toList();
        }

        public List<Decision.Refuse> refused() {
            return decisions.stream().filter(Decision.Refuse.class::isInstance).map(Decision.Refuse.class::cast)
                    .toList();
        }
    }

    /**
     * @param batch     distinct reservations in the order they were delivered
     * @param skus      the terms of every SKU the sale offers among those the batch names; a SKU missing here is unknown
     * @param purchased each buyer's units before the batch; a missing key holds 0
     * @throws IllegalArgumentException when a reservation comes twice
     */
    public static Result allocate(List<Reservation> batch, Map<SkuKey, SkuTerms> skus,
                                  Map<PurchaseKey, Long> purchased) {
        Map<SkuKey, Long> taken = new HashMap<>();
        Map<PurchaseKey, Long> added = new LinkedHashMap<>();
        List<Decision> decisions = new ArrayList<>(batch.size());
        Set<ReservationId> seen = new HashSet<>();
        for (Reservation reservation : batch) {
            if (!seen.add(reservation.id())) {
                throw new IllegalArgumentException("reservation " + reservation.id() + " comes twice in one batch");
            }
            Optional<OrderRefusal> refusal = refusal(reservation, skus, purchased, taken, added);
            if (refusal.isPresent()) {
                decisions.add(new Decision.Refuse(reservation, refusal.get()));
                continue;
            }
            for (ReservationLine line : reservation.lines()) {
                PurchaseKey key = new PurchaseKey(reservation.activityId(), reservation.buyerId(), line.skuId());
                taken.merge(key.sku(), (long) line.quantity(), Long::sum);
                added.merge(key, (long) line.quantity(), Long::sum);
            }
            decisions.add(new Decision.Place(reservation));
        }
        return new Result(decisions, taken, added);
    }

    private static Optional<OrderRefusal> refusal(Reservation reservation, Map<SkuKey, SkuTerms> skus,
                                                  Map<PurchaseKey, Long> purchased, Map<SkuKey, Long> taken,
                                                  Map<PurchaseKey, Long> added) {
        List<ReservationLine> lines = reservation.lines().stream().sorted(LINE_ORDER).toList();
        for (ReservationLine line : lines) {
            if (!skus.containsKey(new SkuKey(reservation.activityId(), line.skuId()))) {
                return Optional.of(OrderRefusal.UNKNOWN_ITEM);
            }
        }
        for (ReservationLine line : lines) {
            PurchaseKey key = new PurchaseKey(reservation.activityId(), reservation.buyerId(), line.skuId());
            SkuTerms terms = skus.get(key.sku());
            long held = purchased.getOrDefault(key, 0L) + added.getOrDefault(key, 0L);
            if (held + line.quantity() > terms.limit()) {
                return Optional.of(OrderRefusal.LIMIT_EXCEEDED);
            }
            if (terms.remaining() - taken.getOrDefault(key.sku(), 0L) < line.quantity()) {
                return Optional.of(OrderRefusal.OUT_OF_STOCK);
            }
        }
        return Optional.empty();
    }
}
