package io.flashsale.adapter.mysql.replica;

import io.flashsale.adapter.mysql.replica.ReplicaRouting.Reads;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.ReconciliationReport;

import java.time.Instant;
import java.util.List;

/**
 * Reports written to the primary, listed from the replica while it trails by at most the bound. The reviews waiting
 * for an operator are read from the primary: an approval and a pass decide by them, and a review opened a moment ago
 * must not be missed.
 */
public final class RoutedReconciliationReports implements ReconciliationReportsPort {

    private final ReconciliationReportsPort primary;
    private final ReconciliationReportsPort replica;
    private final ReplicaRouting routing;

    public RoutedReconciliationReports(ReconciliationReportsPort primary, ReconciliationReportsPort replica,
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

    @Override
    public List<ReconciliationReport> awaitingReview(ActivityId activityId) {
        return primary.awaitingReview(activityId);
    }

    @Override
    public int closeReviews(ActivityId activityId, SkuId skuId, String closedBy, Instant closedAt) {
        return primary.closeReviews(activityId, skuId, closedBy, closedAt);
    }
}
