package io.flashsale.application.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.stock.LedgerAdjustment;

import java.util.List;
import java.util.Optional;

/**
 * The hot store's side of reconciliation: reading it whole, repairing it from the database of record, re-driving lost
 * events, applying audited stock adjustments, and loading it again after it lost an activity. Every write is one
 * atomic step of the store.
 */
public interface HotStoreReconciliationPort {

    /**
     * Every SKU of the activity with its ledger, holdings and the reservations that matter to reconciliation, and which
     * of them still wait in the outbox, in one atomic step. Empty when the hot store does not hold the activity (never
     * warmed up, archived, or lost).
     */
    Optional<HotStoreSnapshot> snapshot(ActivityId activityId);

    /**
     * Rewrites one SKU's ledger (total, reserved, sold, available over its segments, limit) and every buyer's holdings
     * of it, and marks the adjustments applied, in one atomic step, only while the SKU still shows the repair's
     * fingerprint.
     */
    LedgerRepairResult repair(ActivityId activityId, LedgerRepair repair);

    /**
     * Appends the event of a reservation that is still RESERVED to the outbox again, so that the order pipeline settles
     * it; the database's keys make a second delivery harmless. False, and nothing appended, for any other reservation.
     */
    boolean redrive(ReservationId reservationId);

    /**
     * Applies the audited stock adjustment {@code adjustmentId} to the SKU once: total and available move by
     * {@code delta}, refused when fewer units are available than a reduction takes. Never partly applied.
     */
    LedgerAdjustment adjust(ActivityId activityId, SkuId skuId, long delta, long adjustmentId);

    /**
     * Loads an activity the hot store lost from the database's figures, ready last, so reservations answer NOT_READY
     * until every ledger is in place. Also registers it with the outbox relays, as a warm-up does. False, and nothing
     * written, when the hot store holds the activity already.
     */
    boolean rebuild(Activity activity, List<SkuRebuild> skus);
}
