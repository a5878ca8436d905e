package io.flashsale.adapter.mysql;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stretch of time of its own for every test that orders, each earlier than all before it. The expiry takes any order
 * in the database whose deadline passed; since every order a test leaves behind is due after the start of its era,
 * and every later test works at least ten days before that, no test ever expires another's orders.
 */
final class TestEras {

    private static final Instant LATEST = Instant.parse("2060-01-01T00:00:00Z");
    private static final Duration SPACING = Duration.ofDays(10);
    private static final AtomicInteger ERAS = new AtomicInteger();

    private TestEras() {
    }

    /** The start of a fresh era; the test keeps its times within a day after it. */
    static Instant next() {
        return LATEST.minus(SPACING.multipliedBy(ERAS.incrementAndGet()));
    }
}
