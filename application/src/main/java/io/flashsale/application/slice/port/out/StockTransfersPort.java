package io.flashsale.application.slice.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.StockTransfer;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The stock transfers between a sale's slices in the database of record (ADR 109): each is a row before either slice
 * moves a unit, so a slice's allotment (its share, plus what done transfers brought, less what taken or done ones
 * took) can always be told from here, whatever Redis lost.
 */
public interface StockTransfersPort {

    /** Records a new transfer of {@code units} from slice {@code from} to slice {@code to}; it starts REQUESTED. */
    StockTransfer open(ActivityId activityId, SkuId skuId, int from, int to, long units, Instant at);

    /**
     * Moves a transfer on from {@code current} to {@code next} (the same transfer one step later) only if the
     * database still holds {@code current}'s state: false when another runner moved it first.
     */
    boolean advance(StockTransfer current, StockTransfer next);

    Optional<StockTransfer> findById(long id);

    /** Transfers not DONE yet whose id is above {@code afterId}, oldest first, at most {@code limit}: a page. */
    List<StockTransfer> unfinished(long afterId, int limit);

    /** Every transfer of the sale, oldest first. */
    List<StockTransfer> findByActivity(ActivityId activityId);
}
