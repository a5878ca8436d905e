package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds one SKU's two sides, hot store and database of record, for the equation's tests. */
final class Scenario {

    static final SkuId SKU = new SkuId("a");
    static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");
    static final Duration GRACE = Duration.ofSeconds(60);
    static final Instant FRESH = NOW.minusSeconds(5);
    static final Instant STALE = NOW.minusSeconds(600);

    private LedgerFigures stored = LedgerFigures.ZERO;
    private final Map<BuyerId, Long> holdings = new HashMap<>();
    private final List<HotReservation> reservations = new ArrayList<>();
    private final Set<Long> applied = new HashSet<>();
    private long stock;
    private long sold;
    private final Map<BuyerId, Long> purchases = new HashMap<>();
    private final Map<ReservationId, RecordedOrder> orders = new HashMap<>();
    private final Set<ReservationId> restoresOwed = new HashSet<>();
    private final List<RecordedAdjustment> adjustments = new ArrayList<>();
    /** The hot store's own figure of the sum of holdings; null: the sum of {@link #holdings}. */
    private Long heldUnits;
    private boolean holdingsRead = true;

    static ReservationId id(String token) {
        return new ReservationId("sale." + token);
    }

    static BuyerId buyer(String name) {
        return new BuyerId(name);
    }

    /** The hot store's ledger as stored: available is what the segments hold. */
    Scenario hot(long total, long reserved, long sold, long available) {
        stored = new LedgerFigures(total, reserved, sold, available);
        return this;
    }

    Scenario holds(String buyer, long units) {
        holdings.put(buyer(buyer), units);
        return this;
    }

    Scenario reservation(String token, String buyer, ReservationStatus status, long units, Instant reservedAt) {
        reservations.add(new HotReservation(id(token), buyer(buyer), status, units, reservedAt, null, false));
        return this;
    }

    Scenario inOutbox(String token, String buyer, long units, Instant reservedAt) {
        reservations.add(new HotReservation(id(token), buyer(buyer), ReservationStatus.RESERVED, units, reservedAt, null,
                true));
        return this;
    }

    Scenario cancelledByBuyer(String token, String buyer, long units, Instant cancelledAt) {
        reservations.add(new HotReservation(id(token), buyer(buyer), ReservationStatus.CANCELLED, units, STALE,
                cancelledAt, false));
        return this;
    }

    /** The units the hot store holds for the buyer (0: none). */
    long held(BuyerId buyer) {
        return holdings.getOrDefault(buyer, 0L);
    }

    /** The sum of the hot store's holdings, as a store that kept its figure right would show it. */
    long heldSum() {
        return holdings.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The hot store's figure of the SKU's sum of holdings, when it differs from the holdings. */
    Scenario heldFigure(long units) {
        heldUnits = units;
        return this;
    }

    /** A look that leaves the holdings out: only their sum (the figure) is compared. */
    Scenario holdingsLeftOut() {
        holdingsRead = false;
        return this;
    }

    /** The look with its holdings read, as the reconciler asks for when their sum disagrees. */
    HotSkuSnapshot lookWithHoldings() {
        return look().withHoldings(holdings, "fp");
    }

    Scenario applied(long adjustmentId) {
        applied.add(adjustmentId);
        return this;
    }

    /** The database: the item's stock and sold. */
    Scenario recorded(long stock, long sold) {
        this.stock = stock;
        this.sold = sold;
        return this;
    }

    Scenario purchased(String buyer, long units) {
        purchases.put(buyer(buyer), units);
        return this;
    }

    Scenario order(String token, ReservationStatus status, boolean wasOrdered, Instant settledAt) {
        orders.put(id(token), new RecordedOrder(id(token), status, wasOrdered, settledAt));
        return this;
    }

    Scenario restoreOwed(String token) {
        restoresOwed.add(id(token));
        return this;
    }

    Scenario adjustment(long id, long delta, Instant at) {
        adjustments.add(new RecordedAdjustment(id, delta, at));
        return this;
    }

    /**
     * The reconciler's reckoning of the look: where the look left the holdings out, the database is read as the
     * reconciler reads it then, the sum of purchases and no buyer's, so a reckoning that needs any buyer fails.
     */
    SkuReckoning reckon() {
        HotSkuSnapshot look = look();
        return StockReconciliation.reckon(look, holdingsRead ? recorded() : recorded(Set.of()), NOW, GRACE);
    }

    /** The same look reckoned with every buyer's purchases read. */
    SkuReckoning reckonWithEveryPurchase() {
        return reckon(look());
    }

    /**
     * The rolling audit's judgement of some of the stored holdings (ADR 59), on a look that left them out, with the
     * purchases of the slice's buyers alone read, as the reconciler reads them.
     */
    List<HoldingMismatch> audit(String... buyers) {
        Map<BuyerId, Long> slice = slice(buyers);
        return StockReconciliation.auditSlice(look(), recorded(slice.keySet()), NOW, GRACE, slice);
    }

    /** The same audit with every buyer's purchases read. */
    List<HoldingMismatch> auditWithEveryPurchase(String... buyers) {
        return StockReconciliation.auditSlice(look(), recorded(), NOW, GRACE, slice(buyers));
    }

    private Map<BuyerId, Long> slice(String... buyers) {
        Map<BuyerId, Long> slice = new HashMap<>();
        for (String name : buyers) {
            slice.put(buyer(name), holdings.getOrDefault(buyer(name), 0L));
        }
        return slice;
    }

    private RecordedSku recorded() {
        return new RecordedSku(SKU, stock, sold, purchases, orders, restoresOwed, adjustments);
    }

    /** With the sum of every purchase, and the purchases of {@code asked} alone. */
    private RecordedSku recorded(Set<BuyerId> asked) {
        Map<BuyerId, Long> held = new HashMap<>();
        asked.stream().filter(purchases::containsKey).forEach(buyer -> held.put(buyer, purchases.get(buyer)));
        long units = purchases.values().stream().mapToLong(Long::longValue).sum();
        return new RecordedSku(SKU, stock, sold, RecordedPurchases.some(units, asked, held), orders, restoresOwed,
                adjustments);
    }

    SkuReckoning reckon(HotSkuSnapshot look) {
        return StockReconciliation.reckon(look, recorded(), NOW, GRACE);
    }

    private HotSkuSnapshot look() {
        long figure = heldUnits != null ? heldUnits : holdings.values().stream().mapToLong(Long::longValue).sum();
        return new HotSkuSnapshot(SKU, stored, holdingsRead ? holdings : Map.of(), reservations, applied, "fp", figure,
                holdingsRead);
    }
}
