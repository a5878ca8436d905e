package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.shared.LargeMaps;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One SKU in the database of record, read in one consistent step after the hot store's snapshot.
 *
 * @param stock        the SKU's total
 * @param sold         units in orders that hold stock (ORDERED, PAID)
 * @param purchases    units the buyers hold in such orders: their sum, and each buyer's where read
 * @param orders       the orders of the reservations reconciliation asked about (any status); absent: no order yet
 * @param restoresOwed orders of the activity that gave their units back here and still owe the hot store its half
 * @param adjustments  every stock adjustment of the SKU
 */
public record RecordedSku(SkuId skuId, long stock, long sold, RecordedPurchases purchases,
                          Map<ReservationId, RecordedOrder> orders, Set<ReservationId> restoresOwed,
                          List<RecordedAdjustment> adjustments) {

    /** With every buyer's purchases read. */
    public RecordedSku(SkuId skuId, long stock, long sold, Map<BuyerId, Long> purchases,
                       Map<ReservationId, RecordedOrder> orders, Set<ReservationId> restoresOwed,
                       List<RecordedAdjustment> adjustments) {
        this(skuId, stock, sold, RecordedPurchases.complete(purchases), orders, restoresOwed, adjustments);
    }

    public RecordedSku {
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(purchases, "purchases");
        orders = LargeMaps.copyOf(orders);
        restoresOwed = Set.copyOf(restoresOwed);
        adjustments = List.copyOf(adjustments);
    }
}
