package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SliceAdjustments;
import io.flashsale.domain.slice.SliceAllotment;
import io.flashsale.domain.slice.StockTransfer;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One slice of a sale in slices, reconciled against its allotment (ADR 110): the database of record's figures of the
 * slice's orders, with the SKU's stock replaced by what the slice holds of it after the stock transfers.
 *
 * <p>The transfers are read before every look of the hot store and again with the database's figures. A transfer's
 * row moves on only after its step in the hot store, so a transfer that moved between the two reads, or is not DONE,
 * may show in the hot look and not in the figures: the look is then not judged ({@link #heldStill} false), as a look
 * of a SKU that moved is not. A transfer that starts after the second read changes the SKU's version, so a repair
 * computed before it is refused. One run's part: not thread-safe.
 */
final class OneSlice implements ReconciledPart {

    private final SaleSlice slice;
    private final SliceReconcilingPorts ports;
    private final Map<SkuId, Boolean> heldStill = new HashMap<>();
    private List<StockTransfer> beforeLook = List.of();

    OneSlice(SaleSlice slice, SliceReconcilingPorts ports) {
        this.slice = slice;
        this.ports = ports;
    }

    SaleSlice slice() {
        return slice;
    }

    @Override
    public Optional<HotStoreSnapshot> snapshot() {
        beforeLook = ports.transfers().findByActivity(slice.activityId());
        return ports.hotStore().snapshot(slice);
    }

    @Override
    public HotSkuSnapshot withHoldings(HotSkuSnapshot look) {
        return ports.hotStore().withHoldings(slice, look);
    }

    @Override
    public Optional<HoldingsSlice> auditHoldings(HotSkuSnapshot look, int pages) {
        return ports.hotStore().auditHoldings(slice, look, pages);
    }

    @Override
    public LedgerRepairResult repair(LedgerRepair repair) {
        return ports.hotStore().repair(slice, repair);
    }

    @Override
    public Optional<RecordedSku> recorded(SkuId skuId, Collection<ReservationId> reservations,
                                          PurchaseScope purchases) {
        Optional<RecordedSku> read = ports.recorded().recordedSlice(slice, skuId, reservations, purchases);
        if (read.isEmpty()) {
            return read;
        }
        List<StockTransfer> now = ports.transfers().findByActivity(slice.activityId());
        RecordedSku figures = read.get();
        SliceAllotment allotment = SliceAllotment.of(slice, skuId, figures.stock(), now);
        heldStill.put(skuId, !allotment.inTransfer() && ofSku(skuId, beforeLook).equals(ofSku(skuId, now)));
        // Each adjustment as the slice took it: its part, so one on its way counts what reaches this slice (ADR 112).
        return Optional.of(new RecordedSku(skuId, allotment.units(), figures.sold(), figures.purchases(),
                figures.orders(), figures.restoresOwed(),
                SliceAdjustments.asSeenBy(slice, figures.stock(), figures.adjustments())));
    }

    @Override
    public boolean heldStill(SkuId skuId) {
        return heldStill.getOrDefault(skuId, false);
    }

    @Override
    public String named(String why) {
        String name = "slice " + slice.index() + " of " + slice.slices().count();
        return why == null || why.isEmpty() ? name : name + ": " + why;
    }

    /** The transfers of the SKU from or to this slice, as read. */
    private List<StockTransfer> ofSku(SkuId skuId, List<StockTransfer> transfers) {
        return transfers.stream().filter(transfer -> transfer.skuId().equals(skuId))
                .filter(transfer -> transfer.from() == slice.index() || transfer.to() == slice.index())
                .toList();
    }
}
