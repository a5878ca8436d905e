package io.flashsale.adapter.kafka;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

import java.time.Duration;

/**
 * How often the order consumer tries one event before it goes to the dead-letter topic.
 *
 * @param maxAttempts deliveries in all, the first one included
 * @param maxInterval the longest wait between two attempts
 */
public record RetryPolicy(Duration initialInterval, double multiplier, Duration maxInterval, int maxAttempts) {

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
    }

    /** The waits between attempts: {@code maxAttempts - 1} of them, each {@code multiplier} times the last, capped. */
    public BackOff backOff() {
        var backOff = new ExponentialBackOff(initialInterval.toMillis(), multiplier);
        backOff.setMaxInterval(maxInterval.toMillis());
        // Counts the waits, that is the retries after the first delivery.
        backOff.setMaxAttempts(maxAttempts - 1);
        return backOff;
    }
}
