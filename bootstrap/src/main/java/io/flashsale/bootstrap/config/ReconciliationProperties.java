package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Reconciliation of Redis with the database of record.
 *
 * @param scheduleEnabled false: this instance reconciles only on demand and after stock adjustments
 * @param interval        how often the schedule reconciles every live sale
 * @param grace           how long a settlement (an order's confirm, an adjustment) may be on its way to Redis before it
 *                        counts as overdue; a reservation's event is judged by its place in the pipeline (ADR 29)
 * @param attempts        how often a SKU that keeps moving under a repair is read again before the repair is deferred
 * @param redriveWindow   at most one re-drive of one reservation within this window
 * @param auditPages      pages of a hundred holdings the rolling audit reads per SKU and pass (ADR 59); 0: off
 * @param readPace        after each page a pass reads from Redis, a pause this many times as long as the page took, so
 *                        the pass yields to the buyers (ADR 64); 0: none
 * @param autoRepairLimit the largest residual in units (the largest difference over a SKU's figures and its buyers'
 *                        holdings) a pass repairs by itself; a larger one is reported NEEDS_REVIEW and left as found
 *                        until an operator approves the repair (ADR 85), unless the repair loosens Redis by no more
 *                        than this: one that only restricts Redis applies at once (ADR 99). 0: every repair that
 *                        loosens Redis waits for an operator
 */
@ConfigurationProperties("flashsale.reconciliation")
public record ReconciliationProperties(@DefaultValue("true") boolean scheduleEnabled,
                                       @DefaultValue("60s") Duration interval,
                                       @DefaultValue("60s") Duration grace,
                                       @DefaultValue("5") int attempts,
                                       @DefaultValue("10m") Duration redriveWindow,
                                       @DefaultValue("50") int auditPages,
                                       @DefaultValue("2") double readPace,
                                       @DefaultValue("10") long autoRepairLimit) {

    public ReconciliationProperties {
        PositiveDurations.require("flashsale.reconciliation.interval", interval);
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("flashsale.reconciliation.grace must be zero or positive, was " + grace);
        }
        PositiveDurations.require("flashsale.reconciliation.redrive-window", redriveWindow);
        if (attempts < 1) {
            throw new IllegalArgumentException("flashsale.reconciliation.attempts must be at least 1, was " + attempts);
        }
        if (!(readPace >= 0) || Double.isInfinite(readPace)) {
            throw new IllegalArgumentException("flashsale.reconciliation.read-pace must be zero or positive, was "
                    + readPace);
        }
        if (autoRepairLimit < 0) {
            throw new IllegalArgumentException("flashsale.reconciliation.auto-repair-limit must be zero or positive, was "
                    + autoRepairLimit);
        }
        if (auditPages < 0) {
            throw new IllegalArgumentException("flashsale.reconciliation.audit-pages must be zero or positive, was "
                    + auditPages);
        }
    }
}
