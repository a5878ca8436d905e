package io.flashsale.application.service;

import io.flashsale.application.port.in.ActivityArchivedException;
import io.flashsale.application.port.in.ActivityNotFoundException;
import io.flashsale.application.port.in.ActivityNotReadyException;
import io.flashsale.application.port.in.ActivityView;
import io.flashsale.application.port.in.CreateActivityCommand;
import io.flashsale.application.port.in.CreateActivityUseCase;
import io.flashsale.application.port.in.GetActivityUseCase;
import io.flashsale.application.port.in.GetStockUseCase;
import io.flashsale.application.port.in.SaleHasReservationsException;
import io.flashsale.application.port.in.WarmUpActivityUseCase;
import io.flashsale.application.port.out.ActivityRepository;
import io.flashsale.application.port.out.IdGenerator;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Setting up a sale: create it in the database of record, load it into the hot store, look at it. Once archived, a
 * sale is never loaded again and its stock is read from the database of record.
 */
public class ActivityService implements CreateActivityUseCase, GetActivityUseCase, WarmUpActivityUseCase, GetStockUseCase {

    private final ActivityRepository activities;
    private final StockReservationPort stock;
    private final IdGenerator ids;
    private final Duration loadGrace;

    public ActivityService(ActivityRepository activities, StockReservationPort stock, IdGenerator ids) {
        this(activities, stock, ids, LoadInFlight.DEFAULT_GRACE);
    }

    /** @param loadGrace how long a warm-up waits for another one's load in flight before it calls the sale lost */
    public ActivityService(ActivityRepository activities, StockReservationPort stock, IdGenerator ids,
                           Duration loadGrace) {
        this.activities = activities;
        this.stock = stock;
        this.ids = ids;
        this.loadGrace = LoadInFlight.requireGrace(loadGrace);
    }

    @Override
    public Activity create(CreateActivityCommand command) {
        ActivityId id = command.id() == null ? new ActivityId(ids.next()) : command.id();
        Activity activity = command.toActivity(id);
        activities.add(activity);
        return activity;
    }

    @Override
    public Optional<ActivityView> find(ActivityId activityId) {
        return activities.findById(activityId)
                .map(activity -> new ActivityView(activity,
                        stock.stock(activityId).or(() -> archivedStock(activityId))));
    }

    @Override
    public List<SkuStock> warmUp(ActivityId activityId) {
        Activity activity = activities.findById(activityId)
                .orElseThrow(() -> new ActivityNotFoundException(activityId));
        if (activities.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        if (stock.stock(activityId).isEmpty() && WarmUpScheduler.mayHaveReservations(activities, activityId)
                && !LoadInFlight.landsWithin(stock, activityId, loadGrace)) {
            throw new SaleHasReservationsException(activityId);
        }
        activities.recordLoad(activityId);
        return stock.warmUp(activity);
    }

    @Override
    public List<SkuStock> stock(ActivityId activityId) {
        Optional<List<SkuStock>> ledgers = stock.stock(activityId);
        if (ledgers.isPresent()) {
            return ledgers.get();
        }
        if (activities.findById(activityId).isEmpty()) {
            throw new ActivityNotFoundException(activityId);
        }
        return archivedStock(activityId).orElseThrow(() -> new ActivityNotReadyException(activityId));
    }

    /** The ledgers on record once the sale is archived; empty while it is not. */
    private Optional<List<SkuStock>> archivedStock(ActivityId activityId) {
        return activities.archivedAt(activityId).isPresent() ? activities.recordedStock(activityId) : Optional.empty();
    }
}
