package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * The order pipeline gives way to this instance's buyers while they queue for its CPU (ADR 65).
 *
 * @param maxWait the longest a reservation waits for its order because of the buyers; 0 turns giving way off. Keep
 *                it well below the consumer's {@code max.poll.interval.ms} (5 minutes by default)
 * @param look    how often a held batch looks at the buyers and the CPU again
 * @param busyAt  the machine's CPU use, 0 to 1, from which buyers who keep arriving count as queueing
 */
@ConfigurationProperties("flashsale.orders.give-way")
public record GiveWayProperties(@DefaultValue("30s") Duration maxWait,
                                @DefaultValue("100ms") Duration look,
                                @DefaultValue("0.8") double busyAt) {

    public GiveWayProperties {
        if (maxWait.isNegative() || maxWait.compareTo(Duration.ofMinutes(4)) > 0) {
            throw new IllegalArgumentException("flashsale.orders.give-way.max-wait must be between 0 and 4 minutes"
                    + " (below the consumer's poll interval), was " + maxWait);
        }
        PositiveDurations.require("flashsale.orders.give-way.look", look);
        if (!(busyAt > 0 && busyAt <= 1)) {
            throw new IllegalArgumentException("flashsale.orders.give-way.busy-at must be above 0 and at most 1, was "
                    + busyAt);
        }
    }
}
