package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One SKU's ledger loaded from the database of record into an empty hot store: total = stock, sold = sold, nothing
 * reserved (reservations that lived only in the lost store are gone with it), holdings = purchases.
 */
public record SkuRebuild(SkuId skuId, long total, long sold, Map<BuyerId, Long> holdings, Set<Long> adjustmentsApplied) {

    public SkuRebuild {
        Objects.requireNonNull(skuId, "skuId");
        if (sold < 0 || sold > total) {
            throw new IllegalArgumentException("cannot rebuild " + skuId + " with total " + total + " and sold " + sold);
        }
        holdings = LargeMaps.copyOf(holdings);
        adjustmentsApplied = Set.copyOf(adjustmentsApplied);
    }

    public static SkuRebuild of(RecordedSku recorded) {
        return new SkuRebuild(recorded.skuId(), recorded.stock(), recorded.sold(), recorded.purchases().all(),
                recorded.adjustments().stream().map(RecordedAdjustment::id).collect(Collectors.toSet()));
    }

    public LedgerFigures figures() {
        return new LedgerFigures(total, 0, sold, total - sold);
    }
}
