package io.flashsale.application.reconciliation.port.out;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The hot store's side of reconciliation: reading it whole, repairing it from the database of record and re-driving
 * lost events. Every write is one atomic step of the store. Loading a lost activity again is
 * {@link HotStoreRebuildPort}'s, an audited stock adjustment {@link HotStoreAdjustmentPort}'s.
 */
public interface HotStoreReconciliationPort {

    /**
     * Every SKU of the activity with its ledger, holdings and the reservations that matter to reconciliation, and which
     * of them still wait in the outbox. A store may read it in bounded pages, never in one step that costs in
     * proportion to buyers or reservations; a SKU that moved meanwhile carries {@link HotSkuSnapshot#MOVING} as its
     * version. ORDERED reservations keep no record (ADR 71): those that owe a restore are asked for with
     * {@link #restoreStatuses}. Empty when the hot store does not
     * hold the activity (never warmed up, archived, or lost).
     */
    Optional<HotStoreSnapshot> snapshot(ActivityId activityId);

    /**
     * What a restore of each of these closed orders would find in the hot store now: ORDERED while its units are still
     * sold there, its final status once restored, RESERVED while the store has not been told of the order; absent when
     * the store never held it. How reconciliation reads the few orders that owe the hot store a restore.
     */
    Map<ReservationId, ReservationStatus> restoreStatuses(ActivityId activityId, List<PendingRestore> owed);

    /**
     * The look with every buyer's holding of its SKU, read in bounded pages after it, for a look that left them out
     * ({@link HotSkuSnapshot#holdingsRead()} false) and whose sum of holdings disagrees; its version
     * {@link HotSkuSnapshot#MOVING} when the SKU moved since the look. A store whose looks always carry the holdings
     * returns the look as it is.
     */
    default HotSkuSnapshot withHoldings(ActivityId activityId, HotSkuSnapshot look) {
        return look;
    }

    /**
     * The rolling audit of holdings (ADR 59): up to {@code pages} bounded pages of the look's SKU's holdings, continuing
     * where the last steady slice of that SKU stopped, then the SKU's version again. A look whose sum of holdings agrees
     * leaves them out; this is how drift that keeps the sum is still found, within a bounded number of passes. Empty
     * when the store does not audit (its looks carry every holding, or it keeps no cursor) or the look read the
     * holdings or was not steady.
     */
    default Optional<HoldingsSlice> auditHoldings(ActivityId activityId, HotSkuSnapshot look, int pages) {
        return Optional.empty();
    }

    /**
     * Takes reservations that reconciliation found settled in the database (a buyer's cancel recorded there, a FAILED
     * one whose units are back) out of the store's index of reservations in flight, each only while it still shows the
     * status seen, never a RESERVED one. A store that keeps no such index does nothing.
     */
    default void settled(ActivityId activityId, Map<ReservationId, ReservationStatus> seen) {
    }

    /**
     * Rewrites one SKU's ledger (total, reserved, sold, available over its segments, limit) and the holdings of the
     * buyers the repair lists, and marks the adjustments applied, in one atomic step, only while the SKU still shows
     * the repair's version.
     */
    LedgerRepairResult repair(ActivityId activityId, LedgerRepair repair);

    /**
     * Appends the event of a reservation that is still RESERVED to the outbox again, so that the order pipeline settles
     * it; the database's keys make a second delivery harmless. False, and nothing appended, for any other reservation.
     */
    boolean redrive(ReservationId reservationId);
}
