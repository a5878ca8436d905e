package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One SKU of the hot store. A store may read it in several steps (pages); it is one consistent look when its
 * {@code version} was the same before and after the read, and {@link #MOVING} otherwise.
 *
 * @param figures            the ledger as stored; all zero when the ledger is gone
 * @param holdings           units per buyer, without zero entries
 * @param reservations       the reservations of the SKU that reconciliation looks at: RESERVED, ORDERED, FAILED, and
 *                           CANCELLED by the buyer while RESERVED (a store may leave out ORDERED ones: reconciliation
 *                           asks for those that owe a restore, see {@link #withReservations})
 * @param appliedAdjustments ids of the stock adjustments the hot store applied to this SKU
 * @param version            what the store's repair compares before it writes: every script that moves the SKU's
 *                           stock, holdings or a reservation's status changes it; {@link #MOVING} when the SKU moved
 *                           while it was read, which no repair ever matches
 * @param heldUnits          the store's own figure of the sum of every buyer's holding of the SKU, kept by the
 *                           scripts that move holdings
 * @param holdingsRead       false when the store left the holdings out ({@code holdings} is then empty): they are
 *                           compared by {@code heldUnits} and read only when that sum disagrees (ADR 43)
 */
public record HotSkuSnapshot(SkuId skuId, LedgerFigures figures, Map<BuyerId, Long> holdings,
                             List<HotReservation> reservations, Set<Long> appliedAdjustments, String version,
                             long heldUnits, boolean holdingsRead) {

    /** A look with every holding read, whose sum is the store's figure. */
    public HotSkuSnapshot(SkuId skuId, LedgerFigures figures, Map<BuyerId, Long> holdings,
                          List<HotReservation> reservations, Set<Long> appliedAdjustments, String version) {
        this(skuId, figures, holdings, reservations, appliedAdjustments, version,
                holdings.values().stream().mapToLong(Long::longValue).sum(), true);
    }

    public HotSkuSnapshot {
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(figures, "figures");
        holdings = LargeMaps.copyOf(holdings);
        reservations = List.copyOf(reservations);
        appliedAdjustments = Set.copyOf(appliedAdjustments);
        Objects.requireNonNull(version, "version");
        if (!holdingsRead && !holdings.isEmpty()) {
            throw new IllegalArgumentException("holdings left out, yet " + holdings.size() + " given");
        }
    }

    /** The same look with every holding of the SKU, read after it; {@code version} as the read ended. */
    public HotSkuSnapshot withHoldings(Map<BuyerId, Long> read, String versionAfter) {
        return new HotSkuSnapshot(skuId, figures, read, reservations, appliedAdjustments, versionAfter, heldUnits, true);
    }

    /** The version of a SKU that moved while it was read: its parts need not agree, and no repair applies on it. */
    public static final String MOVING = "moving";

    /** False when the SKU moved while it was read: the look is not consistent and must not be judged. */
    public boolean steady() {
        return !MOVING.equals(version);
    }

    /** The same look with more of the SKU's reservations, read after it (the version then guards them too). */
    /** The same look with the given reservations marked {@link HotReservation#inPipeline() in the pipeline}. */
    public HotSkuSnapshot withInPipeline(Set<ReservationId> found) {
        if (found.isEmpty()) {
            return this;
        }
        List<HotReservation> marked = reservations.stream()
                .map(held -> found.contains(held.id()) ? held.foundInPipeline() : held)
                .toList();
        return new HotSkuSnapshot(skuId, figures, holdings, marked, appliedAdjustments, version, heldUnits,
                holdingsRead);
    }

    public HotSkuSnapshot withReservations(List<HotReservation> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<HotReservation> all = new ArrayList<>(reservations);
        all.addAll(more);
        return new HotSkuSnapshot(skuId, figures, holdings, all, appliedAdjustments, version, heldUnits, holdingsRead);
    }
}
