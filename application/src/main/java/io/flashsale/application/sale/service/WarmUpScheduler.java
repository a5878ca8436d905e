package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.WarmUpPass;
import io.flashsale.application.sale.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.application.sale.port.out.ActivityLoadsPort;
import io.flashsale.application.sale.port.out.ActivityWindowsPort;
import io.flashsale.application.sale.port.out.RecordedLedgersPort;
import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Loads sales into the hot store a lead time before they open, on whichever instance gets there first. Activities
 * already loaded are warmed up again too: that never resets their ledgers and re-registers them with the outbox
 * relays, healing a warm-up that died half-way. A failure with one activity does not stop the others; the pass then
 * throws the first failure, the others suppressed in it. While the hot store may evict a sale's keys the pass loads
 * nothing and throws {@link io.flashsale.application.sale.model.HotStoreMayEvictException} (ADR 77).
 */
public class WarmUpScheduler implements ScheduleWarmUpsUseCase {

    public static final Duration DEFAULT_LEAD = ScheduleWarmUpsUseCase.DEFAULT_LEAD;

    private final ActivityWindowsPort windows;
    private final ActivityLoadsPort loads;
    private final RecordedLedgersPort ledgers;
    private final StockReservationPort stock;
    private final Clock clock;
    private final Duration lead;
    private final Duration loadGrace;
    private final EvictionPolicyGuard eviction;

    public <S extends ActivityWindowsPort & ActivityLoadsPort & RecordedLedgersPort>
    WarmUpScheduler(S activities, StockReservationPort stock, Clock clock) {
        this(activities, stock, clock, DEFAULT_LEAD);
    }

    /** @param lead how long before {@code startsAt} an activity is loaded; zero loads it as it opens */
    public <S extends ActivityWindowsPort & ActivityLoadsPort & RecordedLedgersPort>
    WarmUpScheduler(S activities, StockReservationPort stock, Clock clock, Duration lead) {
        this(activities, stock, clock, lead, LoadInFlight.DEFAULT_GRACE);
    }

    /** @param loadGrace how long a warm-up waits for another one's load in flight before it calls the sale lost */
    public <S extends ActivityWindowsPort & ActivityLoadsPort & RecordedLedgersPort>
    WarmUpScheduler(S activities, StockReservationPort stock, Clock clock, Duration lead,
                    Duration loadGrace) {
        this(activities, stock, clock, lead, loadGrace, EvictionPolicyGuard.trusting());
    }

    /** @param eviction refuses the pass while the hot store may evict a sale's keys (ADR 77) */
    public <S extends ActivityWindowsPort & ActivityLoadsPort & RecordedLedgersPort>
    WarmUpScheduler(S activities, StockReservationPort stock, Clock clock, Duration lead,
                    Duration loadGrace, EvictionPolicyGuard eviction) {
        if (lead == null || lead.isNegative()) {
            throw new IllegalArgumentException("lead must be zero or positive, was " + lead);
        }
        this.windows = activities;
        this.loads = activities;
        this.ledgers = activities;
        this.stock = stock;
        this.clock = clock;
        this.lead = lead;
        this.loadGrace = LoadInFlight.requireGrace(loadGrace);
        this.eviction = eviction;
    }

    @Override
    public WarmUpPass warmUpDue() {
        Instant now = clock.instant();
        List<Activity> due = windows.findUnarchivedOverlapping(now, now.plus(lead));
        if (!due.isEmpty()) {
            eviction.requireNoEviction();
        }
        var warmedUp = new ArrayList<ActivityId>();
        var awaitingRebuild = new ArrayList<ActivityId>();
        RuntimeException failure = null;
        for (Activity activity : due) {
            try {
                switch (warmUp(activity)) {
                    case LOADED_NOW -> warmedUp.add(activity.id());
                    case AWAITING_REBUILD -> awaitingRebuild.add(activity.id());
                    case LOADED_BEFORE -> {
                    }
                }
            } catch (RuntimeException storeFailure) {
                if (failure == null) {
                    failure = storeFailure;
                } else {
                    failure.addSuppressed(storeFailure);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
        return new WarmUpPass(warmedUp, awaitingRebuild);
    }

    private Result warmUp(Activity activity) {
        boolean loadedBefore = loaded(activity.id());
        if (!loadedBefore && mayHaveReservations(loads, ledgers, activity.id())) {
            if (!LoadInFlight.landsWithin(stock, activity.id(), loadGrace)) {
                return Result.AWAITING_REBUILD;
            }
            loadedBefore = true;
        }
        loads.recordLoad(activity.id());
        stock.warmUp(activity);
        return loadedBefore ? Result.LOADED_BEFORE : Result.LOADED_NOW;
    }

    /**
     * Whether the hot store holds the sale. One whose figures of a SKU were lost or disagree is held: reconciliation
     * repairs them from the database, and a warm-up must neither fail the pass over it nor load totals over it.
     */
    private boolean loaded(ActivityId activityId) {
        try {
            return stock.stock(activityId).isPresent();
        } catch (HotStoreFiguresDisagreeException damaged) {
            return true;
        }
    }

    /**
     * Whether a sale the hot store does not hold may have reservations anywhere in the pipeline (ADR 30): it was
     * loaded before (and so lost), or, for a sale loaded before the load was recorded, the database sold some of it.
     * Reservations exist only after a load, so a sale never loaded has none: this is exact, and costs two primary-key
     * reads on this admin or scheduled path, never on a reservation.
     */
    static boolean mayHaveReservations(ActivityLoadsPort loads, RecordedLedgersPort ledgers, ActivityId activityId) {
        return loads.wasLoaded(activityId) || ledgers.recordedStock(activityId).orElse(List.of()).stream()
                .map(SkuStock::ledger)
                .anyMatch(ledger -> ledger.sold() > 0);
    }

    private enum Result {
        LOADED_NOW,
        LOADED_BEFORE,
        AWAITING_REBUILD
    }
}
