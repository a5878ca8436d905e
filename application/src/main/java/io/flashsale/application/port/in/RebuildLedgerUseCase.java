package io.flashsale.application.port.in;

import io.flashsale.domain.activity.ActivityId;

public interface RebuildLedgerUseCase {

    /**
     * Loads an activity the hot store lost (after a Redis restart, say) from the database of record: totals, sold units
     * and buyers' purchases, nothing reserved, and only then ready, so it never sells from an empty or partial ledger.
     * What {@link ScheduleWarmUpsUseCase} reports as awaiting a rebuild is rebuilt by this.
     *
     * @throws ActivityNotFoundException when there is no such activity
     * @throws ActivityArchivedException when the sale was archived: it is never loaded again
     */
    RebuildOutcome rebuild(ActivityId activityId);
}
