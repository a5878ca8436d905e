package io.flashsale.adapter.metrics;

import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@value #DRIFT}{activity,sku} (the latest report's drift in units), {@value #REVIEW}{activity,sku} (the residual
 * waiting for an operator's approval, ADR 85), {@value #REPAIRS_ABOVE_LIMIT}{activity,sku} (repairs above that limit
 * applied at once, for they only restricted Redis, ADR 99), {@value #REPAIRS}, {@value #REBUILDS} and
 * {@value #REDRIVES}. Every repair is also a WARN line with the activity, SKU, classification and figures, for an
 * operator to follow up; every repair held back for review, or applied above the limit, an ERROR line.
 */
public final class MicrometerReconciliationMetrics implements ReconciliationMetricsPort {

    public static final String DRIFT = "flashsale.reconciliation.drift";
    public static final String REVIEW = "flashsale.reconciliation.review";
    public static final String REPAIRS = "flashsale.reconciliation.repairs";
    public static final String REPAIRS_ABOVE_LIMIT = "flashsale.reconciliation.repairs.above.limit";
    public static final String REBUILDS = "flashsale.reconciliation.rebuilds";
    public static final String REDRIVES = "flashsale.reconciliation.redrives";
    public static final String ACTIVITY = "activity";
    public static final String SKU = "sku";

    private static final Logger LOG = LoggerFactory.getLogger(MicrometerReconciliationMetrics.class);

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> drifts = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> reviews = new ConcurrentHashMap<>();
    private final Map<String, Counter> aboveLimit = new ConcurrentHashMap<>();
    private final Counter repairs;
    private final Counter rebuilds;
    private final Counter redrives;

    public MicrometerReconciliationMetrics(MeterRegistry registry) {
        this.registry = registry;
        repairs = Counter.builder(REPAIRS)
                .description("SKUs whose Redis ledger was rewritten from the database of record")
                .register(registry);
        rebuilds = Counter.builder(REBUILDS)
                .description("activities Redis had lost, loaded again from the database of record")
                .register(registry);
        redrives = Counter.builder(REDRIVES)
                .description("reservations found nowhere in the order pipeline whose event was appended to the outbox"
                        + " again (at most once per reservation within flashsale.reconciliation.redrive-window)")
                .register(registry);
    }

    @Override
    public void redriven(ActivityId activityId) {
        redrives.increment();
    }

    @Override
    public void reported(ReconciliationReport report) {
        String activity = report.activityId().value();
        String sku = report.skuId().value();
        driftOf(activity, sku).set(report.driftUnits());
        // Registered with the drift gauge, so an alert on it finds the series at 0 before any review.
        AtomicLong review = gauge(reviews, REVIEW, "units of drift above flashsale.reconciliation.auto-repair-limit,"
                + " left in Redis until an operator approves the repair (0: none waits)", activity, sku);
        // Registered at 0 too: an increase over the counter then sees its first repair.
        aboveLimitOf(activity, sku);
        if (report.action() == ReconciliationAction.NEEDS_REVIEW) {
            review.set(report.driftUnits());
            LOG.error("Reconciliation held back the repair of activity {} SKU {} for an operator: {}", activity, sku,
                    report.detail());
        } else if (report.action() != ReconciliationAction.DEFERRED) {
            // A judged run that repaired or found nothing: nothing waits any more (approved, or gone by itself).
            review.set(0);
        }
    }

    @Override
    public void repaired(ReconciliationReport report) {
        repairs.increment();
        LOG.warn("Reconciliation repaired activity {} SKU {}: {} ({}), expected [{}], actual [{}], after [{}]: {}",
                report.activityId().value(), report.skuId().value(), report.classification(), report.action(),
                report.expected(), report.actual(), report.after(), report.detail());
    }

    @Override
    public void repairedAboveLimit(ReconciliationReport report) {
        aboveLimitOf(report.activityId().value(), report.skuId().value()).increment();
        LOG.error("Reconciliation repaired activity {} SKU {} above the automatic repair's limit, without an operator,"
                + " for the repair restricted Redis: find the cause; {}", report.activityId().value(),
                report.skuId().value(), report.detail());
    }

    @Override
    public void rebuilt(ActivityId activityId, List<SkuRebuild> skus) {
        rebuilds.increment();
        LOG.warn("Rebuilt activity {} in Redis from the database of record: {}", activityId.value(),
                skus.stream().map(sku -> sku.skuId().value() + " total=" + sku.total() + " sold=" + sku.sold())
                        .toList());
    }

    private Counter aboveLimitOf(String activity, String sku) {
        return aboveLimit.computeIfAbsent(key(activity, sku), key -> Counter.builder(REPAIRS_ABOVE_LIMIT)
                .description("repairs whose residual exceeded flashsale.reconciliation.auto-repair-limit, applied"
                        + " without an operator for they loosened Redis within the limit (ADR 99)")
                .tag(ACTIVITY, activity)
                .tag(SKU, sku)
                .register(registry));
    }

    private AtomicLong driftOf(String activity, String sku) {
        return gauge(drifts, DRIFT, "units by which Redis differs from the database of record at the latest check",
                activity, sku);
    }

    /** The value the SKU's gauge reads, registered on its first use; the map keeps it from being collected. */
    private AtomicLong gauge(Map<String, AtomicLong> values, String name, String description, String activity,
                             String sku) {
        return values.computeIfAbsent(key(activity, sku), key -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(name, value, AtomicLong::get)
                    .description(description)
                    .baseUnit("units")
                    .tag(ACTIVITY, activity)
                    .tag(SKU, sku)
                    .register(registry);
            return value;
        });
    }

    private static String key(String activity, String sku) {
        return activity + '\u0000' + sku;
    }
}
