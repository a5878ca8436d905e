package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Loading an activity into the hot store again after the store lost it, wholly or in part, from the database of
 * record's orders: begun, written in bounded pages, finished; a runner that takes over makes the others' writes
 * refused. No step costs in proportion to the sale's size.
 */
public interface HotStoreRebuildPort {

    /**
     * Starts rebuilding an activity the hot store lost, wholly or in part: drops whatever the loss left of it (ledger,
     * holdings, reservation records, request index, outbox) unless a rebuild runs already. Refused while the outbox
     * holds entries the relays have not acknowledged. Constant cost, whatever the sale's size.
     *
     * @param since when this rebuild begins by the caller's clock, kept for a runner that takes over
     */
    RebuildStart beginRebuild(ActivityId activityId, Instant since);

    /**
     * Loads one page of the database's orders (a few hundred at most) as reservation records and request index
     * entries; the units of ORDERED and PAID ones count as sold and held. Written together with the cursor
     * {@code last}, and only while {@code rebuildId} runs and the cursor stands at {@code after}.
     *
     * @return false, with nothing written, when the rebuild was taken over
     */
    boolean rebuildPage(ActivityId activityId, String rebuildId, Optional<ReservationId> after, ReservationId last,
                        List<Order> orders);

    /**
     * Writes every SKU's total (and the adjustments it includes) and available = total - the sold units the pages
     * counted, nothing reserved, then ready; registers the activity with the outbox relays. Only the totals and
     * adjustments of {@code skus} are used: sold units and holdings come from the pages.
     *
     * @return false, with nothing written, when the rebuild was taken over
     */
    boolean finishRebuild(Activity activity, String rebuildId, List<SkuRebuild> skus);
}
