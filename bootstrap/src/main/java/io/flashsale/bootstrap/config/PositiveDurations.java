package io.flashsale.bootstrap.config;

import java.time.Duration;

/** The start-up check that a configured interval is a real one. */
final class PositiveDurations {

    private PositiveDurations() {
    }

    static void require(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(property + " must be positive, was " + value);
        }
    }
}
