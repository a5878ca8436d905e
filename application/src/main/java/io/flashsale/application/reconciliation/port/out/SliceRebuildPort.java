package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.StockTransfer;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Loading one slice of a sale in slices into the hot store again after the store lost it (ADR 111): the steps of
 * {@link HotStoreRebuildPort}, each over that slice's own keys alone, so the other slices go on selling meanwhile.
 * Slice 0 of a sale of one slice is the whole sale.
 */
public interface SliceRebuildPort {

    /** True when the slice is loaded and ready: not lost, not being rebuilt. */
    boolean loaded(SaleSlice slice);

    /**
     * True when the slice has no outbox or the relays acknowledged all of it: what a rebuild of the slice waits for
     * before the broker's end is taken (ADR 30), whatever the other slices, which go on selling, hold in theirs.
     */
    boolean outboxDrained(SaleSlice slice);

    /**
     * As {@link HotStoreRebuildPort#beginRebuild}, of the slice: drops what the loss left of it (its ledger, the
     * holdings of the buyers whose home it is, its records, request index and outbox) unless its rebuild runs already;
     * refused while its outbox holds entries the relays have not acknowledged.
     */
    RebuildStart beginRebuild(SaleSlice slice, Instant since);

    /** As {@link HotStoreRebuildPort#rebuildPage}: a page of the orders made in the slice. */
    boolean rebuildPage(SaleSlice slice, String rebuildId, Optional<ReservationId> after, ReservationId last,
                        List<Order> orders);

    /**
     * As {@link HotStoreRebuildPort#finishRebuild}: each SKU's total is the slice's allotment (its share, with what
     * stock transfers took and brought), the sale's terms and the slice count as a warm-up writes them, then ready.
     * Each step of {@code transfers} the slice has made by the database's rows is marked made, as the step itself
     * marks it: the take of every transfer from the slice that is TAKEN or DONE, the credit of every DONE transfer to
     * it. A step that reaches the slice late (a runner's command held up by a failover) then changes nothing.
     *
     * @param transfers the sale's transfers as the database holds them; those of other slices are passed over
     * @return false, with nothing written, when the rebuild was taken over
     */
    boolean finishRebuild(Activity activity, SaleSlice slice, String rebuildId, List<SkuRebuild> skus,
                          List<StockTransfer> transfers);
}
