package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlices;
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

    /**
     * Loads the activity's stock. Idempotent: a ledger that is already there is left as it is. A sale in slices (ADR
     * 109) is loaded in every slice, each with its share of every SKU ({@link SaleSlices#shareOf}).
     */
    List<SkuStock> warmUp(Activity activity);

    /**
     * Decides one attempt atomically: all lines deducted or none. {@code NotReady} before warm-up. For a sale in
     * slices the attempt is decided in the slice its id names ({@link io.flashsale.domain.reservation.ReservationId#slice()},
     * the buyer's home), on that slice's share alone: {@code SoldOut} and {@code InsufficientStock} then speak of that
     * slice, not of the sale. An id that names another slice count than the sale's is answered {@code NotReady}, and
     * nothing is deducted.
     */
    ReservationOutcome reserve(ReservationRequest request);

    /**
     * How many slices the sale is cut into, as the store holds it: {@link SaleSlices#ONE} for a sale not loaded (an
     * attempt there is answered {@code NotReady} anyway). Answered from memory after the first ask of a sale: the
     * count is fixed for the sale's life.
     */
    SaleSlices slices(ActivityId activityId);

    /** The ledgers in item order, summed over the sale's slices; empty when the activity is not warmed up. */
    Optional<List<SkuStock>> stock(ActivityId activityId);

    /** SKU -> units the buyer holds in the activity, without zero entries. */
    Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId);
}
