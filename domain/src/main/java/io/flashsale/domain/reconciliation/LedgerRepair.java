package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What a repair writes for one SKU, in one atomic step, and only while the SKU still shows {@code version}.
 *
 * @param figures            the ledger to write; always consistent, its available spread over {@code segments}
 * @param holdings           the buyers whose units of the SKU change, with their new units (0: holds none); every other
 *                           buyer keeps what the read showed, which the unchanged version guarantees
 * @param adjustmentsApplied stock adjustments the written total includes, to be marked applied so that a late
 *                           application of one of them is refused
 * @param segments           the SKU's segment count and {@code limit} its effective per-user limit, written again in
 *                           case the ledger was lost with them
 * @param heldUnits          the SKU's sum of holdings to write, when the look read every holding and found the
 *                           store's figure of it wrong; empty: the figure moves with the holdings written
 */
public record LedgerRepair(SkuId skuId, LedgerFigures figures, Map<BuyerId, Long> holdings,
                           Set<Long> adjustmentsApplied, String version, int segments, int limit,
                           OptionalLong heldUnits) {

    /** A repair that leaves the sum of holdings moving with the holdings it writes. */
    public LedgerRepair(SkuId skuId, LedgerFigures figures, Map<BuyerId, Long> holdings,
                        Set<Long> adjustmentsApplied, String version, int segments, int limit) {
        this(skuId, figures, holdings, adjustmentsApplied, version, segments, limit, OptionalLong.empty());
    }

    public LedgerRepair {
        Objects.requireNonNull(skuId, "skuId");
        if (!figures.isConsistent()) {
            throw new IllegalArgumentException("a repair writes a consistent ledger, not " + figures);
        }
        holdings = LargeMaps.copyOf(holdings);
        if (holdings.values().stream().anyMatch(units -> units < 0)) {
            throw new IllegalArgumentException("holdings to write must not be negative: " + holdings);
        }
        adjustmentsApplied = Set.copyOf(adjustmentsApplied);
        Objects.requireNonNull(version, "version");
        if (segments < 1 || limit < 1) {
            throw new IllegalArgumentException("segments and limit are at least 1, not " + segments + " and " + limit);
        }
        Objects.requireNonNull(heldUnits, "heldUnits");
        if (heldUnits.isPresent() && heldUnits.getAsLong() < 0) {
            throw new IllegalArgumentException("a sum of holdings is not negative: " + heldUnits);
        }
    }
}
