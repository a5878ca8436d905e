package io.flashsale.domain.slice;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.Require;

import java.util.Collection;

/**
 * The units of one SKU that one slice of a sale holds by the database of record (ADR 110): its share of the SKU's
 * stock, plus what DONE transfers brought it, less what TAKEN and DONE transfers took from it. Units of a TAKEN
 * transfer are in transit: in neither slice until the target is credited and the transfer is DONE.
 *
 * <p>The figure is only as good as the rows it is told of: a REQUESTED transfer may already have been taken in the hot
 * store, a TAKEN one already credited, before their rows moved on. A slice with such a transfer of the SKU is
 * {@link #inTransfer in transfer}, and its hot ledger is not judged against the allotment until the transfer is DONE.
 *
 * @param units the slice's allotment of the SKU
 * @param inTransfer true when a transfer of the SKU from or to the slice is not DONE yet
 */
public record SliceAllotment(long units, boolean inTransfer) {

    public SliceAllotment {
        Require.inRange(units, 0, Long.MAX_VALUE, "units");
    }

    /**
     * @param stock     the SKU's whole stock over every slice
     * @param transfers the sale's transfers (any SKU, any slices); those of other SKUs or slices are passed over
     */
    public static SliceAllotment of(SaleSlice slice, SkuId skuId, long stock, Collection<StockTransfer> transfers) {
        Require.present(skuId, "skuId");
        long units = slice.slices().shareOf(slice.index(), stock);
        boolean inTransfer = false;
        for (StockTransfer transfer : transfers) {
            if (!transfer.skuId().equals(skuId) || !transfer.activityId().equals(slice.activityId())) {
                continue;
            }
            boolean out = transfer.from() == slice.index();
            boolean in = transfer.to() == slice.index();
            if (!out && !in) {
                continue;
            }
            inTransfer |= !transfer.finished();
            if (out && transfer.state() != TransferState.REQUESTED) {
                units -= transfer.moved();
            }
            if (in && transfer.finished()) {
                units += transfer.moved();
            }
        }
        if (units < 0) {
            throw new IllegalStateException("the transfers of " + skuId + " took more from slice " + slice.index()
                    + " of " + slice.activityId() + " than it was ever given: " + units);
        }
        return new SliceAllotment(units, inTransfer);
    }
}
