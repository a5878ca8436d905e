package io.flashsale.application.sale.service;

import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.MoveSaleWindowCommand;
import io.flashsale.application.sale.port.in.MoveSaleWindowUseCase;
import io.flashsale.application.sale.port.in.PauseSaleUseCase;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.sale.port.out.SaleTermsPort;
import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SaleWindowChange;

import java.time.Clock;

/**
 * An operator's pause, resume and window moves (ADR 79). Each change is recorded in the database of record first
 * (the truth a warm-up or rebuild loads), then written to the hot store (which decides attempts by it, exactly),
 * then announced, so every instance forgets what it remembered of the sale: its record, and the refusals it answers
 * from memory. A hot store that fails after the record changed fails the call; repeating it writes the same again.
 */
public class SaleControlService implements PauseSaleUseCase, MoveSaleWindowUseCase {

    /** How often a window move is judged again when another move of the same sale landed in between. */
    static final int MOVE_ATTEMPTS = 3;

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;
    private final SaleTermsPort terms;
    private final HotStoreSaleTermsPort hotStore;
    private final SaleChangesPort changes;
    private final Clock clock;

    public <S extends ActivityLookupPort & ActivityArchivesPort>
    SaleControlService(S activities, SaleTermsPort terms, HotStoreSaleTermsPort hotStore,
                       SaleChangesPort changes, Clock clock) {
        this.activities = activities;
        this.archives = activities;
        this.terms = terms;
        this.hotStore = hotStore;
        this.changes = changes;
        this.clock = clock;
    }

    @Override
    public Activity pause(ActivityId activityId) {
        return setPaused(activityId, true);
    }

    @Override
    public Activity resume(ActivityId activityId) {
        return setPaused(activityId, false);
    }

    private Activity setPaused(ActivityId activityId, boolean paused) {
        Activity sale = unarchived(activityId);
        if (!terms.recordPaused(activityId, paused)) {
            throw new ActivityNotFoundException(activityId);
        }
        hotStore.applyPaused(activityId, paused);
        changes.announce(activityId);
        return paused ? sale.pause() : sale.resume();
    }

    @Override
    public SaleWindowChange move(MoveSaleWindowCommand command) {
        ActivityId activityId = command.activityId();
        for (int attempt = 0; attempt < MOVE_ATTEMPTS; attempt++) {
            Activity sale = unarchived(activityId);
            SaleWindowChange change = sale.moveWindow(command.startsAt(), command.endsAt(), clock.instant());
            if (!(change instanceof SaleWindowChange.Moved moved)) {
                return change;
            }
            Activity target = moved.activity();
            if (terms.recordWindow(activityId, sale.startsAt(), sale.endsAt(), target.startsAt(), target.endsAt())) {
                // The hot store gets the window as recorded: the record keeps milliseconds, and a rebuild loads that.
                Activity recorded = activities.findById(activityId).orElseThrow(
                        () -> new ActivityNotFoundException(activityId));
                hotStore.applyWindow(activityId, recorded.startsAt(), recorded.endsAt());
                changes.announce(activityId);
                return new SaleWindowChange.Moved(recorded);
            }
        }
        throw new StoreContentionException("the window of " + activityId + " kept changing under this move", null);
    }

    private Activity unarchived(ActivityId activityId) {
        Activity sale = activities.findById(activityId).orElseThrow(() -> new ActivityNotFoundException(activityId));
        if (archives.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        return sale;
    }
}
