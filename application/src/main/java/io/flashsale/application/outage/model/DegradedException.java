package io.flashsale.application.outage.model;

import java.time.Duration;

/**
 * The service runs without its hot store and cannot take this attempt now: the database path is at its concurrency
 * limit, the store is being rebuilt, or the store failed while deciding it. Nothing was reserved; try again after
 * {@link #retryAfter()}.
 */
public class DegradedException extends RuntimeException {

    private final Duration retryAfter;

    public DegradedException(String message, Duration retryAfter) {
        super(message, null, false, false);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
