package io.flashsale.adapter.redis.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(10)
class ReadPaceTest {

    @Test
    void givenAPageThatTookTenMilliseconds_whenPacedAtHalf_thenTheReadPausesAtLeastFiveMore() {
        long started = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(10);
        long before = System.nanoTime();

        new ReadPace(0.5).after(started);

        assertThat(System.nanoTime() - before).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(5));
    }

    @Test
    void givenAPageThatStalledForSeconds_thenThePauseStopsAtItsLongest() {
        long started = System.nanoTime() - TimeUnit.SECONDS.toNanos(60);
        long before = System.nanoTime();

        new ReadPace(1).after(started);

        // A lower bound only holds on any machine; the cap shows as a pause far below the minute a ratio of 1 asks.
        long paused = System.nanoTime() - before;
        assertThat(paused).isGreaterThanOrEqualTo(ReadPace.LONGEST_PAUSE_NANOS).isLessThan(TimeUnit.SECONDS.toNanos(5));
    }

    @Test
    void givenAnInterruptedReader_thenItIsNotPausedAndStillInterrupted() {
        Thread.currentThread().interrupt();
        try {
            new ReadPace(1).after(System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(10));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void givenANegativeOrEndlessRatio_thenRefused() {
        assertThatThrownBy(() -> new ReadPace(-0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReadPace(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ReadPace(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class);
    }
}
