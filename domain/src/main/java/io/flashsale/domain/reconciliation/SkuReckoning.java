package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The outcome of {@link StockReconciliation#reckon} for one SKU. {@code expected} and {@code actual} are both seen
 * as if every move already on its way between the stores had landed, so that a busy sale shows no drift; the
 * {@code target} is what the hot store must hold right now for those moves to land on the database's figures.
 *
 * @param expected              the database of record's figures: total = stock, sold = units of holding orders,
 *                              reserved = units of reservations still in flight, available = what is left of them
 * @param actual                the hot store's figures with the moves on their way applied
 * @param settlements           how each reservation the hot store holds counts
 * @param target                the ledger a repair writes; consistent
 * @param targetSettled         the target seen as {@code actual} is: what the hot store shows after a repair
 * @param targetHoldings        every buyer's units after a repair; empty when the look left the holdings out
 * @param holdingChanges        the buyers whose stored units differ from {@code targetHoldings}, with their target
 *                              (0: none): all that a repair writes, so its cost follows the drift, not the buyers
 * @param adjustmentsToMark     adjustments already in the database's total that the hot store has not marked applied
 * @param shortfall             units the reservations in flight exceed what the database has left by (they will be
 *                              refused there); the target then has nothing available and its total covers them
 * @param holdingsToRead        the look left the holdings out and their sum disagrees with the database's: the caller
 *                              reads them ({@link HotSkuSnapshot#withHoldings}) and reckons again before judging
 * @param heldDrift             the store's figure of the sum of holdings minus the holdings it read (0 when they were
 *                              not read): a repair writes the figure again
 * @param holdingsLowered       the most units a repair takes off one buyer's stored holding, or off the store's figure
 *                              of their sum when it writes that figure; 0 when it lowers none
 */
public record SkuReckoning(SkuId skuId, String version, LedgerFigures expected, LedgerFigures actual,
                           List<HoldingMismatch> holdingMismatches, Map<ReservationId, ReservationSettlement> settlements,
                           ReconciliationClassification classification, LedgerFigures target,
                           LedgerFigures targetSettled, Map<BuyerId, Long> targetHoldings,
                           Map<BuyerId, Long> holdingChanges, Set<Long> adjustmentsToMark,
                           long shortfall, boolean holdingsToRead, long heldDrift, long holdingsLowered) {

    public SkuReckoning {
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(version, "version");
        holdingMismatches = List.copyOf(holdingMismatches);
        settlements = LargeMaps.copyOf(settlements);
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(targetSettled, "targetSettled");
        targetHoldings = LargeMaps.copyOf(targetHoldings);
        holdingChanges = LargeMaps.copyOf(holdingChanges);
        adjustmentsToMark = Set.copyOf(adjustmentsToMark);
        if (holdingsLowered < 0) {
            throw new IllegalArgumentException("holdingsLowered is not negative: " + holdingsLowered);
        }
    }

    public LedgerFigures drift() {
        return actual.minus(expected);
    }

    /** The figures, some buyer's holdings or the store's sum of them disagree (or the holdings are still to be read). */
    public boolean needsRepair() {
        return !drift().isZero() || !holdingMismatches.isEmpty() || holdingsToRead || heldDrift != 0;
    }

    /** The largest disagreement in units, over the four figures and every buyer's holdings; 0 when in sync. */
    public long driftUnits() {
        long holdings = holdingMismatches.stream()
                .mapToLong(mismatch -> Math.abs(mismatch.actual() - mismatch.expected())).max().orElse(0);
        return Math.max(drift().largest(), holdings);
    }

    /**
     * How far the repair would loosen what the hot store offers, in units: the most it would add to the available
     * units or the total, or take off reserved, sold, a buyer's holding or their sum (ADR 99). 0 when every change it
     * makes only restricts the hot store (fewer units available, more counted reserved, sold or held): such a repair
     * can neither oversell nor let a buyer past the limit, whatever its size.
     */
    public long loosenedUnits() {
        // The target is seen as the actual figures are (the same moves on their way applied to both), so their
        // difference is what the repair writes over what the store holds now.
        LedgerFigures change = targetSettled.minus(actual);
        long figures = Math.max(Math.max(change.available(), change.total()),
                Math.max(-change.reserved(), -change.sold()));
        return Math.max(Math.max(0, figures), holdingsLowered);
    }

    /** The reservations counted as {@code settlement}, in id order. */
    public List<ReservationId> reservations(ReservationSettlement settlement) {
        return settlements.entrySet().stream()
                .filter(entry -> entry.getValue() == settlement)
                .map(Map.Entry::getKey)
                .sorted((a, b) -> a.value().compareTo(b.value()))
                .toList();
    }

    /** The repair that writes {@link #target()} for this item of the sale. */
    public LedgerRepair repair(ActivityItem item, PurchaseLimit limit) {
        if (!item.skuId().equals(skuId)) {
            throw new IllegalArgumentException("item " + item.skuId() + " is not SKU " + skuId);
        }
        if (holdingsToRead) {
            throw new IllegalStateException("SKU " + skuId + ": holdings disagree and were not read; no repair from this look");
        }
        OptionalLong heldUnits = heldDrift == 0 ? OptionalLong.empty()
                : OptionalLong.of(targetHoldings.values().stream().mapToLong(Long::longValue).sum());
        return new LedgerRepair(skuId, target, holdingChanges, adjustmentsToMark, version, item.segments(),
                limit.max(), heldUnits);
    }
}
