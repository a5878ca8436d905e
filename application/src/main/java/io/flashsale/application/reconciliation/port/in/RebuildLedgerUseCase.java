package io.flashsale.application.reconciliation.port.in;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.domain.activity.ActivityId;

public interface RebuildLedgerUseCase {

    /**
     * Loads an activity the hot store lost, wholly or in part (after a Redis restart, say), from the database of record,
     * in bounded steps while the sale answers NOT_READY: every order as a reservation record and request index entry,
     * the ledger and holdings summed from them, totals from the items, and only then ready, so it never sells from an
     * empty or partial ledger. Whatever the loss left behind is dropped first. Safe to call from any instance at any
     * time: a rebuild another instance is running is left to it (IN_PROGRESS), one whose runner died is taken over.
     * What {@link ScheduleWarmUpsUseCase} reports as awaiting a rebuild is rebuilt by this.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws ActivityArchivedException when the sale was archived: it is never loaded again
     */
    RebuildOutcome rebuild(ActivityId activityId);
}
