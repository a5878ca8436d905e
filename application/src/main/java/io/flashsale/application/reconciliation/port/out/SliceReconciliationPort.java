package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.slice.SaleSlice;

import java.util.Optional;

/**
 * The hot store's side of reconciling one slice of a sale in slices (ADR 110): the reads and the guarded repair of
 * {@link HotStoreReconciliationPort}, each over that slice's own keys alone. What names a reservation (settled ones,
 * restore statuses, a re-drive) stays with {@link HotStoreReconciliationPort}, which takes each to the slice its id
 * names. Slice 0 of a sale of one slice is the whole sale.
 */
public interface SliceReconciliationPort {

    /**
     * As {@link HotStoreReconciliationPort#snapshot}, of the slice alone: its ledger of each SKU (its share, with what
     * stock transfers took and brought), the holdings of the buyers whose home it is, its reservations and which of
     * them still wait in its outbox. Empty when the slice is not loaded.
     */
    Optional<HotStoreSnapshot> snapshot(SaleSlice slice);

    /** As {@link HotStoreReconciliationPort#withHoldings}, over the slice's holdings. */
    HotSkuSnapshot withHoldings(SaleSlice slice, HotSkuSnapshot look);

    /** As {@link HotStoreReconciliationPort#auditHoldings}, over the slice's holdings with a cursor of the slice's own. */
    Optional<HoldingsSlice> auditHoldings(SaleSlice slice, HotSkuSnapshot look, int pages);

    /** As {@link HotStoreReconciliationPort#repair}: the slice's ledger of one SKU, only while it shows the version. */
    LedgerRepairResult repair(SaleSlice slice, LedgerRepair repair);
}
