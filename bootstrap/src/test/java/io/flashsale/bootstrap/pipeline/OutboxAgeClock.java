package io.flashsale.bootstrap.pipeline;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The clock the outbox's age gauge reads in the pipeline tests: the wall clock, as in the service, except while a test
 * makes it run faster from a moment on, so that an alert's minutes pass in seconds. The outbox's entry ids carry
 * Redis's wall clock, so an entry written after that moment ages {@code factor} times as fast.
 */
final class OutboxAgeClock extends Clock {

    static final OutboxAgeClock INSTANCE = new OutboxAgeClock();

    private record Pace(long fromMillis, int factor) {
    }

    private volatile Pace pace = new Pace(0, 1);

    private OutboxAgeClock() {
    }

    /** From now on, each wall-clock second is {@code factor} seconds of this clock. */
    void runFaster(int factor) {
        if (factor < 1) {
            throw new IllegalArgumentException("a clock runs forward, not at " + factor);
        }
        pace = new Pace(System.currentTimeMillis(), factor);
    }

    void runAtWallSpeed() {
        pace = new Pace(0, 1);
    }

    @Override
    public Instant instant() {
        Pace now = pace;
        long wall = System.currentTimeMillis();
        return Instant.ofEpochMilli(now.fromMillis() + (wall - now.fromMillis()) * now.factor());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the outbox's age is read in UTC only");
    }
}
