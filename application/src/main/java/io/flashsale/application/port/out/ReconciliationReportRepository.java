package io.flashsale.application.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;

/** Reconciliation reports worth keeping (drift found, or something done), in the database of record. */
public interface ReconciliationReportRepository {

    void save(ReconciliationReport report);

    /** The activity's latest reports, newest first, at most {@code max}. */
    List<ReconciliationReport> findRecent(ActivityId activityId, int max);
}
