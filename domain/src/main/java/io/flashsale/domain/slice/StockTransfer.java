package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.Require;

import java.time.Instant;

/**
 * Units of one SKU moving from one slice of a sale to another (ADR 109). The database of record holds the row before
 * either slice moves anything; the source takes at most {@code units} from what it has available (never from what is
 * reserved) and says how many it {@code moved}; the target is credited exactly those, once. A unit is never lost nor
 * doubled: each step is keyed by the transfer's id, so repeating one after a crash changes nothing.
 *
 * @param id    the database's id: what both slices key their step by
 * @param moved the units the source gave, known from {@link TransferState#TAKEN} on; 0 before
 */
public record StockTransfer(long id, ActivityId activityId, SkuId skuId, int from, int to, long units,
                            TransferState state, long moved, Instant requestedAt) {

    public StockTransfer {
        Require.present(activityId, "activityId");
        Require.present(skuId, "skuId");
        Require.inRange(from, 0, SaleSlices.MAX - 1, "from");
        Require.inRange(to, 0, SaleSlices.MAX - 1, "to");
        if (from == to) {
            throw new InvalidValueException("to", "must be another slice than from");
        }
        Require.inRange(units, 1, ActivityItem.MAX_STOCK, "units");
        Require.present(state, "state");
        Require.inRange(moved, 0, units, "moved");
        if (state == TransferState.REQUESTED && moved != 0) {
            throw new IllegalArgumentException("a requested transfer has moved nothing yet");
        }
        Require.present(requestedAt, "requestedAt");
    }

    /** A transfer the database has just recorded, before either slice moved anything. */
    public static StockTransfer requested(long id, ActivityId activityId, SkuId skuId, int from, int to, long units,
                                          Instant at) {
        return new StockTransfer(id, activityId, skuId, from, to, units, TransferState.REQUESTED, 0, at);
    }

    /**
     * This transfer once the source gave {@code moved} units: taken, or done at once when it gave none (nothing is
     * left to credit).
     */
    public StockTransfer taken(long moved) {
        if (state != TransferState.REQUESTED) {
            throw new IllegalStateException("transfer " + id + " is " + state + ", not REQUESTED");
        }
        Require.inRange(moved, 0, units, "moved");
        return withState(moved == 0 ? TransferState.DONE : TransferState.TAKEN, moved);
    }

    /** This transfer once the target holds the moved units. */
    public StockTransfer done() {
        if (state != TransferState.TAKEN) {
            throw new IllegalStateException("transfer " + id + " is " + state + ", not TAKEN");
        }
        return withState(TransferState.DONE, moved);
    }

    public boolean finished() {
        return state == TransferState.DONE;
    }

    private StockTransfer withState(TransferState next, long movedUnits) {
        return new StockTransfer(id, activityId, skuId, from, to, units, next, movedUnits, requestedAt);
    }
}
