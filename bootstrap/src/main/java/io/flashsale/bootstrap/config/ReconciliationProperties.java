package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Reconciliation of Redis with the database of record.
 *
 * @param scheduleEnabled false: this instance reconciles only on demand and after stock adjustments
 * @param interval        how often the schedule reconciles every live sale
 * @param grace           how long a move between the stores may be on its way before it counts as lost
 * @param attempts        how often a SKU that keeps moving under a repair is read again before the repair is deferred
 */
@ConfigurationProperties("flashsale.reconciliation")
public record ReconciliationProperties(@DefaultValue("true") boolean scheduleEnabled,
                                       @DefaultValue("60s") Duration interval,
                                       @DefaultValue("60s") Duration grace,
                                       @DefaultValue("5") int attempts) {

    public ReconciliationProperties {
        PositiveDurations.require("flashsale.reconciliation.interval", interval);
        if (grace == null || grace.isNegative()) {
            throw new IllegalArgumentException("flashsale.reconciliation.grace must be zero or positive, was " + grace);
        }
        if (attempts < 1) {
            throw new IllegalArgumentException("flashsale.reconciliation.attempts must be at least 1, was " + attempts);
        }
    }
}
