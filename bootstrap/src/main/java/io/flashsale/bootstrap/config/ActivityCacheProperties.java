package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * How long the reservation path remembers what the database said of a sale the hot store does not hold (unknown, not
 * loaded yet, archived): one query per id and {@code ttl}, however many requests ask.
 *
 * @param ttl     how old a remembered answer may be; zero asks the database every time
 * @param maxSize ids remembered at most
 */
@ConfigurationProperties("flashsale.reservation.activity-cache")
public record ActivityCacheProperties(@DefaultValue("2s") Duration ttl,
                                      @DefaultValue("10000") long maxSize) {

    public ActivityCacheProperties {
        if (ttl == null || ttl.isNegative()) {
            throw new IllegalArgumentException("flashsale.reservation.activity-cache.ttl must be zero or positive, was "
                    + ttl);
        }
        if (maxSize < 1) {
            throw new IllegalArgumentException("flashsale.reservation.activity-cache.max-size must be positive, was "
                    + maxSize);
        }
    }
}
