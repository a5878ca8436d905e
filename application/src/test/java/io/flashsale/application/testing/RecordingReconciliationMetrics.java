package io.flashsale.application.testing;

import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reconciliation.SkuRebuild;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Keeps everything reconciliation reports, so tests can see the gauge values, repairs and rebuilds. Shipped in the
 * application test-jar for the adapters' flow tests.
 */
public final class RecordingReconciliationMetrics implements ReconciliationMetricsPort {

    public final List<ReconciliationReport> reported = new CopyOnWriteArrayList<>();
    public final List<ReconciliationReport> repaired = new CopyOnWriteArrayList<>();
    public final List<ReconciliationReport> repairedAboveLimit = new CopyOnWriteArrayList<>();
    public final List<ActivityId> rebuilt = new CopyOnWriteArrayList<>();

    @Override
    public void reported(ReconciliationReport report) {
        reported.add(report);
    }

    @Override
    public void repaired(ReconciliationReport report) {
        repaired.add(report);
    }

    @Override
    public void repairedAboveLimit(ReconciliationReport report) {
        repairedAboveLimit.add(report);
    }

    @Override
    public void rebuilt(ActivityId activityId, List<SkuRebuild> skus) {
        rebuilt.add(activityId);
    }
}
