package io.flashsale.application.slice.service;

import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.slice.port.in.FinishTransfersUseCase;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;

import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Stock transfers between a sale's slices (ADR 109), always in one order: the row in the database of record, the take
 * on the source slice, the row marked taken with what the source gave, the credit on the target slice, the row marked
 * done. Each Redis step is keyed by the transfer's id and each row step is conditional on the state before it, so any
 * runner may repeat any step after a crash: the source gives once, the target is credited once.
 */
public class StockTransferService implements TransferStockUseCase, FinishTransfersUseCase {

    /** The unfinished transfers the sweep reads at a time; a pass reads page after page to the last. */
    static final int SWEEP_PAGE = 200;

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final StockTransfersPort transfers;
    private final SliceStockPort slices;
    private final Clock clock;

    public StockTransferService(ActivityLookupPort activities, ActivityArchivesPort archives,
                                StockTransfersPort transfers, SliceStockPort slices, Clock clock) {
        this.activities = activities;
        this.archives = archives;
        this.transfers = transfers;
        this.slices = slices;
        this.clock = clock;
    }

    @Override
    public StockTransfer transfer(ActivityId activityId, SkuId skuId, int from, int to, long units) {
        Activity sale = activities.findById(activityId).orElseThrow(() -> new ActivityNotFoundException(activityId));
        sale.item(skuId).orElseThrow(() -> new SkuNotFoundException(activityId, skuId));
        sale.slices().requireSlice(from, "from");
        sale.slices().requireSlice(to, "to");
        if (archives.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        StockTransfer opened = transfers.open(activityId, skuId, from, to, units, clock.instant());
        return carryOn(opened, sale.slices());
    }

    @Override
    public int finishUnfinished() {
        Map<ActivityId, Optional<SaleSlices>> known = new HashMap<>();
        int finished = 0;
        long after = 0;
        List<StockTransfer> page;
        do {
            // By id, not from the start each time: transfers that cannot move now never hide the ones behind them.
            page = transfers.unfinished(after, SWEEP_PAGE);
            for (StockTransfer transfer : page) {
                after = transfer.id();
                Optional<SaleSlices> sliced = known.computeIfAbsent(transfer.activityId(),
                        id -> activities.findById(id).map(Activity::slices));
                if (sliced.isPresent() && carryOn(transfer, sliced.get()).finished()) {
                    finished++;
                }
            }
        } while (page.size() == SWEEP_PAGE);
        return finished;
    }

    /**
     * The transfer taken as far as the stores allow now: a step a store cannot take (down, a slice not loaded, a slice
     * that lost the SKU and waits for its repair) leaves it for the sweep, which goes on with the next one.
     */
    private StockTransfer carryOn(StockTransfer transfer, SaleSlices of) {
        StockTransfer current = transfer;
        try {
            while (!current.finished()) {
                Optional<StockTransfer> next = step(current, of);
                if (next.isEmpty()) {
                    return current;
                }
                if (!transfers.advance(current, next.get())) {
                    // Another runner moved it on: carry on from what the database holds now.
                    current = transfers.findById(current.id()).orElseThrow();
                    continue;
                }
                current = next.get();
            }
        } catch (StoreUnavailableException | HotStoreFiguresDisagreeException notNow) {
            return current;
        }
        return current;
    }

    /** The transfer one step on, or empty when the slice of that step is not loaded. */
    private Optional<StockTransfer> step(StockTransfer transfer, SaleSlices of) {
        if (transfer.state() == TransferState.REQUESTED) {
            OptionalLong taken = slices.take(new SaleSlice(transfer.activityId(), transfer.from(), of),
                    transfer.skuId(), transfer.id(), transfer.units());
            return taken.isPresent() ? Optional.of(transfer.taken(taken.getAsLong())) : Optional.empty();
        }
        boolean credited = slices.credit(new SaleSlice(transfer.activityId(), transfer.to(), of), transfer.skuId(),
                transfer.id(), transfer.moved());
        return credited ? Optional.of(transfer.done()) : Optional.empty();
    }
}
