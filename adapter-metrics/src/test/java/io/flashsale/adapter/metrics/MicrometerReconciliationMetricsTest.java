package io.flashsale.adapter.metrics;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerReconciliationMetricsTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final LedgerFigures TRUTH = new LedgerFigures(10, 0, 4, 6);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerReconciliationMetrics metrics = new MicrometerReconciliationMetrics(registry);

    @Test
    void givenReportsOfTwoSkus_whenReported_thenEachGaugeShowsItsLatestDrift() {
        metrics.reported(report("sale-1", "sku-a", new LedgerFigures(10, 0, 1, 9)));
        metrics.reported(report("sale-1", "sku-b", TRUTH));
        assertThat(drift("sale-1", "sku-a")).isEqualTo(3);
        assertThat(drift("sale-1", "sku-b")).isZero();

        metrics.reported(report("sale-1", "sku-a", TRUTH));

        assertThat(drift("sale-1", "sku-a")).isZero();
        assertThat(registry.find(MicrometerReconciliationMetrics.DRIFT).gauges()).hasSize(2);
    }

    @Test
    void givenRepairsAndRebuilds_whenReported_thenEachIsCounted() {
        metrics.repaired(report("sale-1", "sku-a", new LedgerFigures(10, 0, 1, 9)));
        metrics.repaired(report("sale-1", "sku-b", new LedgerFigures(0, 0, 0, 0)));
        metrics.rebuilt(new ActivityId("sale-1"), List.of(new SkuRebuild(new SkuId("sku-a"), 10, 4, Map.of(), Set.of())));

        assertThat(registry.counter(MicrometerReconciliationMetrics.REPAIRS).count()).isEqualTo(2);
        assertThat(registry.counter(MicrometerReconciliationMetrics.REBUILDS).count()).isEqualTo(1);
    }

    @Test
    void givenASkuHeldBackForReview_thenItsReviewGaugeShowsTheResidualUntilAJudgedRunFindsNothingWaiting() {
        metrics.reported(report("sale-1", "sku-b", TRUTH));
        assertThat(review("sale-1", "sku-b")).isZero();

        metrics.reported(report("sale-1", "sku-a", new LedgerFigures(10, 0, 0, 10), ReconciliationAction.NEEDS_REVIEW));
        assertThat(review("sale-1", "sku-a")).isEqualTo(4);

        // A deferred run judged nothing: the review still waits.
        metrics.reported(report("sale-1", "sku-a", new LedgerFigures(10, 0, 0, 10), ReconciliationAction.DEFERRED));
        assertThat(review("sale-1", "sku-a")).isEqualTo(4);

        metrics.reported(report("sale-1", "sku-a", new LedgerFigures(10, 0, 0, 10), ReconciliationAction.REPAIRED));
        assertThat(review("sale-1", "sku-a")).isZero();
        assertThat(registry.find(MicrometerReconciliationMetrics.REVIEW).gauges()).hasSize(2);
    }

    @Test
    void givenARepairAboveTheLimit_thenItsSkusCounterCountsIt_registeredAtZeroByTheSkusFirstReport() {
        metrics.reported(report("sale-1", "sku-a", TRUTH));
        assertThat(aboveLimit("sale-1", "sku-a")).isZero();

        ReconciliationReport repaired = report("sale-1", "sku-a", new LedgerFigures(10, 0, 0, 10),
                ReconciliationAction.REPAIRED);
        metrics.reported(repaired);
        metrics.repaired(repaired);
        metrics.repairedAboveLimit(repaired);

        assertThat(aboveLimit("sale-1", "sku-a")).isEqualTo(1);
        assertThat(review("sale-1", "sku-a")).as("nothing waits: it was repaired").isZero();
        assertThat(registry.counter(MicrometerReconciliationMetrics.REPAIRS).count()).isEqualTo(1);
    }

    private double aboveLimit(String activity, String sku) {
        return registry.get(MicrometerReconciliationMetrics.REPAIRS_ABOVE_LIMIT)
                .tag(MicrometerReconciliationMetrics.ACTIVITY, activity)
                .tag(MicrometerReconciliationMetrics.SKU, sku).counter().count();
    }

    private double review(String activity, String sku) {
        return registry.get(MicrometerReconciliationMetrics.REVIEW)
                .tag(MicrometerReconciliationMetrics.ACTIVITY, activity)
                .tag(MicrometerReconciliationMetrics.SKU, sku).gauge().value();
    }

    private double drift(String activity, String sku) {
        return registry.get(MicrometerReconciliationMetrics.DRIFT)
                .tag(MicrometerReconciliationMetrics.ACTIVITY, activity)
                .tag(MicrometerReconciliationMetrics.SKU, sku).gauge().value();
    }

    private static ReconciliationReport report(String activity, String sku, LedgerFigures actual) {
        return report(activity, sku, actual, ReconciliationAction.NONE);
    }

    private static ReconciliationReport report(String activity, String sku, LedgerFigures actual,
                                               ReconciliationAction action) {
        ReconciliationClassification classification = actual.equals(TRUTH)
                ? ReconciliationClassification.NONE : ReconciliationClassification.REDIS_BEHIND;
        return new ReconciliationReport(new ActivityId(activity), new SkuId(sku), NOW, classification,
                action, TRUTH, actual, actual, List.of(), List.of(), List.of(), List.of(), "");
    }
}
