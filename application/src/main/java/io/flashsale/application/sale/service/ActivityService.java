package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.model.ActivityView;
import io.flashsale.application.sale.model.CreateActivityCommand;
import io.flashsale.application.sale.model.SaleHasReservationsException;
import io.flashsale.application.sale.port.in.CreateActivityUseCase;
import io.flashsale.application.sale.port.in.GetActivityUseCase;
import io.flashsale.application.sale.port.in.GetStockUseCase;
import io.flashsale.application.sale.port.in.WarmUpActivityUseCase;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityCataloguePort;
import io.flashsale.application.sale.port.out.ActivityLoadsPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.application.sale.port.out.RecordedLedgersPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
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

    private final ActivityCataloguePort catalogue;
    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final ActivityLoadsPort loads;
    private final RecordedLedgersPort ledgers;
    private final ActivityRecordsPort records;
    private final StockReservationPort stock;
    private final IdGeneratorPort ids;
    private final Duration loadGrace;
    private final SaleChangesPort changes;
    private final RecentStockFigures figures;
    private final EvictionPolicyGuard eviction;

    /** Reads the repository itself and tells nobody of a creation. */
    public <S extends ActivityCataloguePort & ActivityLookupPort & ActivityArchivesPort & ActivityLoadsPort
            & RecordedLedgersPort>
    ActivityService(S activities, StockReservationPort stock, IdGeneratorPort ids,
                    Duration loadGrace) {
        this(activities, id -> ActivityRecord.read(activities, id), stock, ids, loadGrace, SaleChangesPort.none());
    }

    /**
     * @param records   the sales as the read path sees them, usually remembered in front of {@code activities}
     * @param loadGrace how long a warm-up waits for another one's load in flight before it calls the sale lost
     */
    public <S extends ActivityCataloguePort & ActivityLookupPort & ActivityArchivesPort & ActivityLoadsPort
            & RecordedLedgersPort>
    ActivityService(S activities, ActivityRecordsPort records, StockReservationPort stock,
                    IdGeneratorPort ids, Duration loadGrace, SaleChangesPort changes) {
        this(activities, records, stock, ids, loadGrace, changes, RecentStockFigures.none(stock));
    }

    /** @param figures the hot store's live figures as the buyers' reads see them (at most one read per sale per moment) */
    public <S extends ActivityCataloguePort & ActivityLookupPort & ActivityArchivesPort & ActivityLoadsPort
            & RecordedLedgersPort>
    ActivityService(S activities, ActivityRecordsPort records, StockReservationPort stock,
                    IdGeneratorPort ids, Duration loadGrace, SaleChangesPort changes, RecentStockFigures figures) {
        this(activities, records, stock, ids, loadGrace, changes, figures, EvictionPolicyGuard.trusting());
    }

    /** @param eviction refuses a warm-up while the hot store may evict a sale's keys (ADR 77) */
    public <S extends ActivityCataloguePort & ActivityLookupPort & ActivityArchivesPort & ActivityLoadsPort
            & RecordedLedgersPort>
    ActivityService(S activities, ActivityRecordsPort records, StockReservationPort stock,
                    IdGeneratorPort ids, Duration loadGrace, SaleChangesPort changes, RecentStockFigures figures,
                    EvictionPolicyGuard eviction) {
        this.catalogue = activities;
        this.activities = activities;
        this.archives = activities;
        this.loads = activities;
        this.ledgers = activities;
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
        catalogue.add(activity);
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
        if (archives.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        eviction.requireNoEviction();
        if (stock.stock(activityId).isEmpty() && WarmUpScheduler.mayHaveReservations(loads, ledgers, activityId)
                && !LoadInFlight.landsWithin(stock, activityId, loadGrace)) {
            throw new SaleHasReservationsException(activityId);
        }
        loads.recordLoad(activityId);
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
