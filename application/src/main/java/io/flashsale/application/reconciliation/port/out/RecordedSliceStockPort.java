package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;

import java.util.Collection;
import java.util.Optional;

/**
 * The database of record's figures of one SKU within one slice of a sale in slices (ADR 110): what the orders whose
 * reservation ids name the slice add up to. A buyer's reservations are all made in the buyer's home slice, so the
 * slice's buyers are exactly those orders' buyers.
 */
public interface RecordedSliceStockPort {

    /**
     * As {@link RecordedStockPort#recordedSku}, within the slice, all read in one consistent step: {@code stock} is the
     * SKU's whole stock (the slice's allotment follows from it and the transfers), {@code sold} and the purchases count
     * the units of the slice's orders that hold stock (ORDERED, PAID) only, the owed restores are the slice's only; the
     * orders of {@code reservations} and the SKU's adjustments as there. Its cost follows the slice's orders, never
     * the other slices'. Empty when the activity has no such SKU.
     */
    Optional<RecordedSku> recordedSlice(SaleSlice slice, SkuId skuId, Collection<ReservationId> reservations,
                                        PurchaseScope purchases);
}
