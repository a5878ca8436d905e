package io.flashsale.application.slice.port.out;

import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.stock.SkuStock;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The hot store's two halves of a stock transfer between slices (ADR 109), each one atomic step on one slice's slot and
 * keyed by the transfer's id, so repeating either after a crash changes nothing.
 */
public interface SliceStockPort {

    /**
     * Takes at most {@code units} of the SKU from what the slice has available (never from what is reserved or sold):
     * its total and available fall by the units taken. The first call decides and keeps its answer; a repeat for the
     * same transfer returns that answer and takes nothing.
     *
     * @return the units taken, 0 to {@code units}; empty when the slice is not loaded (not warmed, lost, being
     *         rebuilt), so nothing was taken
     */
    OptionalLong take(SaleSlice slice, SkuId skuId, long transferId, long units);

    /**
     * Adds {@code units} of the SKU to the slice's total and available, once for the transfer: a repeat adds nothing.
     *
     * @return true when the slice holds the units (added now or by an earlier call); false when the slice is not
     *         loaded, so nothing was added
     */
    boolean credit(SaleSlice slice, SkuId skuId, long transferId, long units);

    /**
     * The units of the SKU the slice has available now (not reserved, not sold).
     *
     * @return empty when the slice is not loaded or has no such SKU
     */
    OptionalLong available(SaleSlice slice, SkuId skuId);

    /**
     * The ledgers of every SKU the slice holds, in item order: its share of the total, reserved and sold.
     *
     * @return empty when the slice is not loaded
     */
    Optional<List<SkuStock>> stock(SaleSlice slice);
}
