package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hot path: the store that holds a sale's stock and decides its reservations atomically. Its rules are those of
 * {@link io.flashsale.domain.stock.ActivityLedger}; the contract suite holds every implementation to them. What
 * happens to a reservation after it was decided is {@link ReservationTransitionsPort}'s, reading one
 * {@link HeldReservationsPort}'s.
 */
public interface StockReservationPort {

    /** Loads the activity's stock. Idempotent: a ledger that is already there is left as it is. */
    List<SkuStock> warmUp(Activity activity);

    /** Decides one attempt atomically: all lines deducted or none. {@code NotReady} before warm-up. */
    ReservationOutcome reserve(ReservationRequest request);

    /** The ledgers in item order; empty when the activity is not warmed up. */
    Optional<List<SkuStock>> stock(ActivityId activityId);

    /** SKU -> units the buyer holds in the activity, without zero entries. */
    Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId);
}
