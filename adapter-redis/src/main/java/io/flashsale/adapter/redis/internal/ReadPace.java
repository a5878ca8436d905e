package io.flashsale.adapter.redis.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * How a background read yields between its pages: after each page it pauses {@code ratio} times as long as the page
 * took (the command and the decoding of its reply), so the read takes at most {@code 1 / (1 + ratio)} of the time it
 * runs for, and the buyers' commands and threads get the rest. A pass takes longer, and no buyer waits for it.
 *
 * @param ratio 0: no pause
 */
public record ReadPace(double ratio) {

    public static final ReadPace NONE = new ReadPace(0);

    /** The longest pause after one page, whatever it took: a page that stalled is no reason to stall the pass. */
    static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    public ReadPace {
        if (!(ratio >= 0) || Double.isInfinite(ratio)) {
            throw new IllegalArgumentException("a read pace is a ratio of 0 or more, not " + ratio);
        }
    }

    /** Pauses after a page that started at {@code startedNanos} ({@link System#nanoTime()}). */
    public void after(long startedNanos) {
        if (ratio == 0) {
            return;
        }
        long pause = Math.min(LONGEST_PAUSE_NANOS, (long) ((System.nanoTime() - startedNanos) * ratio));
        if (pause <= 0) {
            return;
        }
        try {
            Thread.sleep(Duration.ofNanos(pause));
        } catch (InterruptedException stopping) {
            // The read goes on without its pause; whoever interrupted decides when it stops.
            Thread.currentThread().interrupt();
        }
    }
}
