package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Collection;
import java.util.Optional;

/** A sale of one slice, reconciled whole against the SKU's figures in the database of record. */
record WholeSale(ActivityId activityId, HotStoreReconciliationPort hotStore, RecordedStockPort recorded)
        implements ReconciledPart {

    @Override
    public Optional<HotStoreSnapshot> snapshot() {
        return hotStore.snapshot(activityId);
    }

    @Override
    public HotSkuSnapshot withHoldings(HotSkuSnapshot look) {
        return hotStore.withHoldings(activityId, look);
    }

    @Override
    public Optional<HoldingsSlice> auditHoldings(HotSkuSnapshot look, int pages) {
        return hotStore.auditHoldings(activityId, look, pages);
    }

    @Override
    public LedgerRepairResult repair(LedgerRepair repair) {
        return hotStore.repair(activityId, repair);
    }

    @Override
    public Optional<RecordedSku> recorded(SkuId skuId, Collection<ReservationId> reservations,
                                          PurchaseScope purchases) {
        return recorded.recordedSku(activityId, skuId, reservations, purchases);
    }

    @Override
    public boolean heldStill(SkuId skuId) {
        return true;
    }

    @Override
    public String named(String why) {
        return why;
    }
}
