package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The order lifecycle's background jobs on this instance; every instance may run them at once.
 *
 * @param expiryEnabled         false: this instance expires no unpaid orders (another one must)
 * @param expiryInterval        how often due orders are looked for; an unpaid order expires this long after its
 *                              deadline at most (plus the pass itself)
 * @param restoreSweepEnabled   false: this instance does not finish hot-store restores left pending
 * @param restoreSweepInterval  how often restores the hot store could not take at once are tried again
 * @param batchSize             orders per expiry or sweep pass (one transaction, one Redis script per activity);
 *                              a full pass is followed by the next one at once
 * @param deadLetterReleaseEnabled  false: this instance does not give back the units of dead-lettered reservations
 *                                  past their payment deadline (another one must, or an operator replays them)
 * @param deadLetterReleaseInterval how often the dead letters are read for reservations past their payment deadline;
 *                                  one instance at a time (ADR 78)
 */
@ConfigurationProperties("flashsale.lifecycle")
public record LifecycleProperties(@DefaultValue("true") boolean expiryEnabled,
                                  @DefaultValue("2s") Duration expiryInterval,
                                  @DefaultValue("true") boolean restoreSweepEnabled,
                                  @DefaultValue("5s") Duration restoreSweepInterval,
                                  @DefaultValue("500") int batchSize,
                                  @DefaultValue("true") boolean deadLetterReleaseEnabled,
                                  @DefaultValue("30s") Duration deadLetterReleaseInterval) {

    public LifecycleProperties {
        if (batchSize < 1) {
            throw new IllegalArgumentException("flashsale.lifecycle.batch-size must be positive, was " + batchSize);
        }
        PositiveDurations.require("flashsale.lifecycle.expiry-interval", expiryInterval);
        PositiveDurations.require("flashsale.lifecycle.restore-sweep-interval", restoreSweepInterval);
        PositiveDurations.require("flashsale.lifecycle.dead-letter-release-interval", deadLetterReleaseInterval);
    }
}
