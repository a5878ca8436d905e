package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * One runner per scheduled job across instances (reconciliation, warm-up, archive, restore sweep): each pass first
 * takes the job's lock in the database of record. Expiry is not locked: every instance expires safely (SKIP LOCKED).
 *
 * @param enabled   false: every instance runs every schedule, as before the lock (one instance only, or tests)
 * @param atMostFor how long an instance that died in a pass keeps its job from the others; longer than any pass
 * @param holdShare the share of a job's interval its lock is held at least from when a pass took it, so the
 *                  instances together run the job about once per interval; between 0 and 1
 */
@ConfigurationProperties("flashsale.schedule.lock")
public record ScheduleLockProperties(@DefaultValue("true") boolean enabled,
                                     @DefaultValue("5m") Duration atMostFor,
                                     @DefaultValue("0.9") double holdShare) {

    public ScheduleLockProperties {
        PositiveDurations.require("flashsale.schedule.lock.at-most-for", atMostFor);
        if (!(holdShare >= 0 && holdShare < 1)) {
            throw new IllegalArgumentException("flashsale.schedule.lock.hold-share must be at least 0 and below 1, was "
                    + holdShare);
        }
    }

    /** How long the lock of a job run every {@code interval} is held at least: never above {@link #atMostFor}. */
    public Duration atLeastFor(Duration interval) {
        Duration share = Duration.ofNanos((long) (interval.toNanos() * holdShare));
        return share.compareTo(atMostFor) < 0 ? share : atMostFor;
    }
}
