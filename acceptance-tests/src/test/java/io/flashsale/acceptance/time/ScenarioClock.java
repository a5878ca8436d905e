package io.flashsale.acceptance.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The service's clock in the scenarios: real time, plus the jumps forward the scenarios make to reach a sale's opening,
 * its end or a payment deadline at once instead of waiting for them. A few seconds of a loaded machine then never
 * decide a scenario: a sale can end in an hour and still be over at the step that says so. It never goes back, so
 * the times the service has stamped stay in order; every later scenario simply lives further in the future.
 */
public final class ScenarioClock extends Clock {

    private final AtomicLong aheadMillis = new AtomicLong();

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(System.currentTimeMillis() + aheadMillis.get());
    }

    @Override
    public long millis() {
        return System.currentTimeMillis() + aheadMillis.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (!ZoneOffset.UTC.equals(zone)) {
            throw new UnsupportedOperationException("the scenarios' clock reads UTC only");
        }
        return this;
    }

    /** Jumps forward, if need be, so that the clock reads {@code moment} or later from now on. */
    public void advanceTo(Instant moment) {
        long needed = moment.toEpochMilli() - System.currentTimeMillis();
        aheadMillis.accumulateAndGet(needed, Math::max);
    }

    /** How far ahead of real time the clock is: the jumps made so far. */
    public Duration ahead() {
        return Duration.ofMillis(aheadMillis.get());
    }
}
