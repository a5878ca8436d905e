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

import java.util.Collection;
import java.util.Optional;

/**
 * What one reconciliation compares: a whole sale ({@link WholeSale}), or one slice of a sale in slices against its
 * allotment ({@link OneSlice}, ADR 110). Both sides are read, and the hot side repaired, through it; what names a
 * reservation (a re-drive, a restore status, a settled one) goes to the slice its id names whatever the part.
 */
sealed interface ReconciledPart permits WholeSale, OneSlice {

    /** The hot store's look of the part; empty when it does not hold it. */
    Optional<HotStoreSnapshot> snapshot();

    HotSkuSnapshot withHoldings(HotSkuSnapshot look);

    Optional<HoldingsSlice> auditHoldings(HotSkuSnapshot look, int pages);

    LedgerRepairResult repair(LedgerRepair repair);

    /** The database of record's figures of the SKU within the part, read after the hot store's look. */
    Optional<RecordedSku> recorded(SkuId skuId, Collection<ReservationId> reservations, PurchaseScope purchases);

    /**
     * True when what the last {@link #recorded} figures rest on held still since the last {@link #snapshot}, so the
     * two can be judged together: always for a whole sale; for a slice, no transfer of the SKU from or to it moved.
     */
    boolean heldStill(SkuId skuId);

    /** A report's reason, naming the part when it is not the whole sale. */
    String named(String why);
}
