package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reconciliation.SkuRebuild;

import java.util.List;

/** What reconciliation reports to operators: the drift per SKU, every repair, every rebuild. */
public interface ReconciliationMetricsPort {

    /** Every report: the SKU's drift gauge takes {@link ReconciliationReport#driftUnits()} (0 when in sync). */
    void reported(ReconciliationReport report);

    /** A repair rewrote the SKU from the database of record: count it and log the activity, SKU and figures. */
    void repaired(ReconciliationReport report);

    /**
     * A repair above {@code flashsale.reconciliation.auto-repair-limit} was applied without an operator, for it loosened
     * what the hot store offers by no more than the limit (ADR 99): count it per SKU, so that an operator still hears of
     * a residual that size. Called after {@link #repaired}.
     */
    default void repairedAboveLimit(ReconciliationReport report) {
    }

    /** An activity the hot store had lost was loaded again from the database of record. */
    void rebuilt(ActivityId activityId, List<SkuRebuild> skus);

    /** A reservation found nowhere in the pipeline had its event appended to the outbox again. */
    default void redriven(ActivityId activityId) {
    }
}
