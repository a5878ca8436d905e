package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Redis down, the sale goes on (ADR 0039): the circuit breaker around the hot store and the database path.
 *
 * @param enabled              false: no breaker, a Redis failure fails the attempt (the behaviour before ADR 39)
 * @param failureRateThreshold percentage of failed reserve calls, over the last {@code slidingWindow} calls (and at
 *                             least {@code minimumCalls}), that opens the breaker
 * @param databaseConcurrency  attempts the database decides at once on one instance; more get 503 DEGRADED. Keep it
 *                             below the connection pool so payments, cancellations and the pipeline still get one
 * @param retryAfter           what a 503 DEGRADED tells the buyer to wait
 * @param probeInterval        how often an open breaker asks Redis whether it is back
 * @param drainTimeout         how long a recovery waits for the attempts in the database path before it gives up
 *                             (and tries again at the next probe)
 * @param rebuildRetryFirst    how soon a sale the recovery could not rebuild yet is asked again (ADR 62); each wait
 *                             doubles, up to {@code rebuildRetryLongest}
 * @param rebuildRetryFor      how long such a sale is retried before it is left to the reconciliation schedule
 * @param rebuildRetryWorkers  how many of those sales are retried at once: one slow rebuild does not hold up the others,
 *                             and the database never sees more than this many retried rebuilds at a time
 * @param recoveryWorkers      how many sales a recovery brings back at once (rebuilt, or reconciled where Redis kept
 *                             them) while the instance's buyers wait: every sale it served since it started
 */
@ConfigurationProperties("flashsale.outage")
public record OutageProperties(@DefaultValue("true") boolean enabled,
                               @DefaultValue("50") float failureRateThreshold,
                               @DefaultValue("20") int slidingWindow,
                               @DefaultValue("5") int minimumCalls,
                               @DefaultValue("6") int databaseConcurrency,
                               @DefaultValue("1s") Duration retryAfter,
                               @DefaultValue("1s") Duration probeInterval,
                               @DefaultValue("10s") Duration drainTimeout,
                               @DefaultValue("250ms") Duration rebuildRetryFirst,
                               @DefaultValue("2s") Duration rebuildRetryLongest,
                               @DefaultValue("10m") Duration rebuildRetryFor,
                               @DefaultValue("4") int rebuildRetryWorkers,
                               @DefaultValue("4") int recoveryWorkers) {

    public OutageProperties {
        PositiveDurations.require("flashsale.outage.retry-after", retryAfter);
        PositiveDurations.require("flashsale.outage.probe-interval", probeInterval);
        PositiveDurations.require("flashsale.outage.drain-timeout", drainTimeout);
        PositiveDurations.require("flashsale.outage.rebuild-retry-first", rebuildRetryFirst);
        PositiveDurations.require("flashsale.outage.rebuild-retry-longest", rebuildRetryLongest);
        PositiveDurations.require("flashsale.outage.rebuild-retry-for", rebuildRetryFor);
        if (rebuildRetryLongest.compareTo(rebuildRetryFirst) < 0) {
            throw new IllegalArgumentException(
                    "flashsale.outage.rebuild-retry-longest must not be shorter than rebuild-retry-first");
        }
        if (failureRateThreshold <= 0 || failureRateThreshold > 100) {
            throw new IllegalArgumentException("flashsale.outage.failure-rate-threshold must be in (0, 100]");
        }
        if (slidingWindow < 1 || minimumCalls < 1 || databaseConcurrency < 1 || rebuildRetryWorkers < 1
                || recoveryWorkers < 1) {
            throw new IllegalArgumentException("flashsale.outage.sliding-window, minimum-calls, database-concurrency,"
                    + " rebuild-retry-workers and recovery-workers must be positive");
        }
    }
}
