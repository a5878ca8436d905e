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
import io.flashsale.application.port.out.ActivityRecord;
import io.flashsale.application.port.out.ActivityRecordsPort;
import io.flashsale.application.port.out.ActivitiesPort;
import io.flashsale.application.port.out.IdGeneratorPort;
import io.flashsale.application.port.out.SaleChangesPort;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Setting up a sale: create it in the database of record, load it into the hot store, look at it. Once archived, a
 * sale is never loaded again and its stock is read from the database of record. Reads ask {@link ActivityRecordsPort}
 * (which may answer from memory) and the hot store's live figures; a creation is announced on {@link SaleChangesPort}
 * so that no instance keeps calling the new id unknown.
 */
public class ActivityService implements CreateActivityUseCase, GetActivityUseCase, WarmUpActivityUseCase, GetStockUseCase {

    /** How long a warm-up waits, by default, for another one's load in flight. */
    public static final Duration DEFAULT_LOAD_GRACE = LoadInFlight.DEFAULT_GRACE;

    private final ActivitiesPort activities;
    private final ActivityRecordsPort records;
    private final StockReservationPort stock;
    private final IdGeneratorPort ids;
    private final Duration loadGrace;
    private final SaleChangesPort changes;
    private final RecentStockFigures figures;
    private final EvictionPolicyGuard eviction;

    /** Reads the repository itself and tells nobody of a creation. */
    public ActivityService(ActivitiesPort activities, StockReservationPort stock, IdGeneratorPort ids,
                           Duration loadGrace) {
        this(activities, id -> ActivityRecord.read(activities, id), stock, ids, loadGrace, SaleChangesPort.none());
    }

    /**
     * @param records   the sales as the read path sees them, usually remembered in front of {@code activities}
     * @param loadGrace how long a warm-up waits for another one's load in flight before it calls the sale lost
     */
    public ActivityService(ActivitiesPort activities, ActivityRecordsPort records, StockReservationPort stock,
                           IdGeneratorPort ids, Duration loadGrace, SaleChangesPort changes) {
        this(activities, records, stock, ids, loadGrace, changes, RecentStockFigures.none(stock));
    }

    /** @param figures the hot store's live figures as the buyers' reads see them (at most one read per sale per moment) */
    public ActivityService(ActivitiesPort activities, ActivityRecordsPort records, StockReservationPort stock,
                           IdGeneratorPort ids, Duration loadGrace, SaleChangesPort changes, RecentStockFigures figures) {
        this(activities, records, stock, ids, loadGrace, changes, figures, EvictionPolicyGuard.trusting());
    }

    /** @param eviction refuses a warm-up while the hot store may evict a sale's keys (ADR 77) */
    public ActivityService(ActivitiesPort activities, ActivityRecordsPort records, StockReservationPort stock,
                           IdGeneratorPort ids, Duration loadGrace, SaleChangesPort changes, RecentStockFigures figures,
                           EvictionPolicyGuard eviction) {
        this.activities = activities;
        this.records = records;
        this.stock = stock;
        this.ids = ids;
        this.loadGrace = LoadInFlight.requireGrace(loadGrace);
        this.changes = changes;
        this.figures = figures;
        this.eviction = eviction;
    }

    @Override
    public Activity create(CreateActivityCommand command) {
        ActivityId id = command.id() == null ? new ActivityId(ids.next()) : command.id();
        Activity activity = command.toActivity(id);
        activities.add(activity);
        changes.announce(id);
        return activity;
    }

    /**
     * An archived sale shows its ledgers on record; any other, the hot store's (none before its warm-up), as recent as
     * {@link RecentStockFigures} keeps them.
     */
    @Override
    public Optional<ActivityView> find(ActivityId activityId) {
        return records.find(activityId).map(record -> new ActivityView(record.activity(),
                record.ledgersOnRecord().isPresent() ? record.ledgersOnRecord() : figures.of(activityId)));
    }

    @Override
    public List<SkuStock> warmUp(ActivityId activityId) {
        Activity activity = activities.findById(activityId)
                .orElseThrow(() -> new ActivityNotFoundException(activityId));
        if (activities.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        eviction.requireNoEviction();
        if (stock.stock(activityId).isEmpty() && WarmUpScheduler.mayHaveReservations(activities, activityId)
                && !LoadInFlight.landsWithin(stock, activityId, loadGrace)) {
            throw new SaleHasReservationsException(activityId);
        }
        activities.recordLoad(activityId);
        List<SkuStock> loaded = stock.warmUp(activity);
        figures.forget(activityId);
        return loaded;
    }

    @Override
    public List<SkuStock> stock(ActivityId activityId) {
        Optional<List<SkuStock>> ledgers = stock.stock(activityId);
        if (ledgers.isPresent()) {
            return ledgers.get();
        }
        ActivityRecord record = records.find(activityId).orElseThrow(() -> new ActivityNotFoundException(activityId));
        return record.ledgersOnRecord().orElseThrow(() -> new ActivityNotReadyException(activityId));
    }
}
