package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One SKU of the hot store, read in one atomic step.
 *
 * @param figures            the ledger as stored; all zero when the ledger is gone
 * @param holdings           units per buyer, without zero entries
 * @param reservations       the reservations of the SKU that reconciliation looks at: RESERVED, ORDERED, FAILED, and
 *                           CANCELLED by the buyer while RESERVED
 * @param appliedAdjustments ids of the stock adjustments the hot store applied to this SKU
 * @param fingerprint        what the store's repair compares before it writes: any stock move of the SKU since this
 *                           read changes it
 */
public record HotSkuSnapshot(SkuId skuId, LedgerFigures figures, Map<BuyerId, Long> holdings,
                             List<HotReservation> reservations, Set<Long> appliedAdjustments, String fingerprint) {

    public HotSkuSnapshot {
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(figures, "figures");
        holdings = Map.copyOf(holdings);
        reservations = List.copyOf(reservations);
        appliedAdjustments = Set.copyOf(appliedAdjustments);
        Objects.requireNonNull(fingerprint, "fingerprint");
    }
}
