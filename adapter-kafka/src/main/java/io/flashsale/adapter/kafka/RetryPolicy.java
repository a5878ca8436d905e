package io.flashsale.adapter.kafka;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

import java.time.Duration;

/**
 * How often the order consumer tries one event before it goes to the dead-letter topic, and how it waits for stores
 * out of reach, which never send an event there (ADR 78).
 *
 * @param maxAttempts   deliveries in all, the first one included
 * @param maxInterval   the longest wait between two attempts
 * @param probeInterval while a store is out of reach: how often the database is asked whether it answers again
 */
public record RetryPolicy(Duration initialInterval, double multiplier, Duration maxInterval, int maxAttempts,
                          Duration probeInterval) {

    public RetryPolicy {
        if (initialInterval.isNegative() || maxInterval.compareTo(initialInterval) < 0) {
            throw new IllegalArgumentException("need 0 <= initialInterval <= maxInterval");
        }
        if (multiplier < 1) {
            throw new IllegalArgumentException("multiplier must be at least 1");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (!probeInterval.isPositive()) {
            throw new IllegalArgumentException("probeInterval must be positive");
        }
    }

    /** The waits between attempts: {@code maxAttempts - 1} of them, each {@code multiplier} times the last, capped. */
    public BackOff backOff() {
        var backOff = new ExponentialBackOff(initialInterval.toMillis(), multiplier);
        backOff.setMaxInterval(maxInterval.toMillis());
        // Counts the waits, that is the retries after the first delivery.
        backOff.setMaxAttempts(maxAttempts - 1);
        return backOff;
    }

    /** While a store is out of reach: a wait of {@code probeInterval} each time, and attempts that never run out. */
    public BackOff whileStoresAreOut() {
        return new FixedBackOff(probeInterval.toMillis(), FixedBackOff.UNLIMITED_ATTEMPTS);
    }
}
