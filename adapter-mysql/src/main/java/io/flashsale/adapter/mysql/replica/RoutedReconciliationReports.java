package io.flashsale.adapter.mysql.replica;

import io.flashsale.adapter.mysql.replica.ReplicaRouting.Reads;
import io.flashsale.application.port.out.ReconciliationReportRepository;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.util.List;

/** Reports written to the primary, listed from the replica while it trails by at most the bound. */
public final class RoutedReconciliationReports implements ReconciliationReportRepository {

    private final ReconciliationReportRepository primary;
    private final ReconciliationReportRepository replica;
    private final ReplicaRouting routing;

    public RoutedReconciliationReports(ReconciliationReportRepository primary, ReconciliationReportRepository replica,
                                       ReplicaRouting routing) {
        this.primary = primary;
        this.replica = replica;
        this.routing = routing;
    }

    @Override
    public void save(ReconciliationReport report) {
        primary.save(report);
    }

    @Override
    public List<ReconciliationReport> findRecent(ActivityId activityId, int max) {
        return routing.read(Reads.LISTING, primary, replica, reports -> reports.findRecent(activityId, max));
    }
}
