package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.cache.RememberedActivities;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How long the service remembers what the database said of a sale, for reading it and for the reservation path's
 * look-ups of sales the hot store does not hold (ADR 0066): a change of the sale is heard by every instance within
 * moments, so {@code ttl} only bounds how long a lost notice can leave a sale stale.
 *
 * @param ttl        how long a sale is remembered at most; zero asks the database every time
 * @param unknownTtl how long an id the database does not know is remembered (a creation is heard at once); zero asks
 *                   the database every time
 * @param maxSize    ids remembered at most
 * @param figuresFreshFor how long one read of a sale's live figures in the hot store serves the buyers' reads of it
 *                   on this instance (the page polls every second); zero reads the hot store for every request
 */
@ConfigurationProperties("flashsale.activity-cache")
public record ActivityCacheProperties(@DefaultValue("10s") Duration ttl,
                                      @DefaultValue("2s") Duration unknownTtl,
                                      @DefaultValue("10000") long maxSize,
                                      @DefaultValue("250ms") Duration figuresFreshFor) {

    public ActivityCacheProperties {
        requireZeroOrPositive(ttl, "ttl");
        requireZeroOrPositive(unknownTtl, "unknown-ttl");
        requireZeroOrPositive(figuresFreshFor, "figures-fresh-for");
        if (maxSize < 1) {
            throw new IllegalArgumentException("flashsale.activity-cache.max-size must be positive, was " + maxSize);
        }
    }

    RememberedActivities.Memory toMemory() {
        return new RememberedActivities.Memory(ttl, unknownTtl, maxSize);
    }

    private static void requireZeroOrPositive(Duration duration, String name) {
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException("flashsale.activity-cache." + name + " must be zero or positive, was "
                    + duration);
        }
    }
}
