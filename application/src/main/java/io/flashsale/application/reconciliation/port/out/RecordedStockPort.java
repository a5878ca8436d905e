package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Collection;
import java.util.Optional;

/** The database of record's figures of one SKU, as reconciliation compares the hot store with them. */
public interface RecordedStockPort {

    /**
     * The SKU's stock, sold units, the units its buyers purchased (their sum, and each buyer's of {@code purchases}),
     * its stock adjustments, the orders of the activity that still owe the hot store a restore, and the orders (in any
     * status) of {@code reservations}, all read in one consistent step. Empty when the activity has no such SKU.
     * Only what {@code purchases} names costs per buyer.
     */
    Optional<RecordedSku> recordedSku(ActivityId activityId, SkuId skuId, Collection<ReservationId> reservations,
                                      PurchaseScope purchases);
}
