package io.flashsale.adapter.scheduling;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class PeriodicLoopTest {

    private static final Duration AN_HOUR = Duration.ofHours(1);
    private static final Duration SHORT = Duration.ofMillis(10);

    private PeriodicLoop loop;

    @AfterEach
    void stopLoop() {
        if (loop != null) {
            loop.stop();
        }
    }

    @Test
    void givenFullPasses_whenRunning_thenTheNextFollowsAtOnceAndOnlyAPassWithRoomToSpareWaitsTheInterval()
            throws InterruptedException {
        var job = ScriptedPass.answering(() -> true, () -> true, () -> false);
        loop = new PeriodicLoop("job", job, AN_HOUR, true);

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> job.passes() == 3);
        Thread.sleep(200);
        assertThat(job.passes()).as("waiting the interval after the third pass").isEqualTo(3);
    }

    @Test
    void givenAShortInterval_whenRunning_thenPassesRepeat() {
        var job = ScriptedPass.answering();
        loop = new PeriodicLoop("job", job, SHORT, true);

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> job.passes() >= 5);
    }

    @Test
    void givenFailingPasses_whenRunning_thenTheLoopKeepsGoing() {
        var job = ScriptedPass.answering(
                () -> {
                    throw new IllegalStateException("database down");
                },
                () -> {
                    throw new LinkageError("a class this pass needs failed to load");
                },
                () -> false);
        loop = new PeriodicLoop("job", job, SHORT, true);

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> job.passes() >= 5);
        assertThat(loop.isRunning()).isTrue();
    }

    @Test
    void givenAWaitingLoop_whenStopped_thenItWakesUpAndEndsWithoutAnotherPass() {
        var job = ScriptedPass.answering();
        loop = new PeriodicLoop("job", job, AN_HOUR, true);
        loop.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> job.passes() == 1);

        loop.stop();

        assertThat(loop.isRunning()).isFalse();
        assertThat(job.passes()).isEqualTo(1);
    }

    @Test
    void givenAStoppedLoop_whenStartedAgain_thenItRunsAgain() {
        var job = ScriptedPass.answering();
        loop = new PeriodicLoop("job", job, SHORT, true);
        loop.start();
        loop.stop();
        int passesWhileStopped = job.passes();

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> job.passes() > passesWhileStopped + 2);
    }

    @Test
    void givenAJobConfiguredOff_whenTheContextStarts_thenTheLoopIsNotStartedAutomatically() {
        loop = new PeriodicLoop("job", ScriptedPass.answering(), SHORT, false);

        assertThat(loop.isAutoStartup()).isFalse();
        assertThat(loop.isRunning()).isFalse();
        assertThat(loop.name()).isEqualTo("job");
    }

    @Test
    void givenNoRealInterval_whenBuilt_thenRefused() {
        assertThatThrownBy(() -> new PeriodicLoop("job", () -> false, Duration.ZERO, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("job");
        assertThatThrownBy(() -> new PeriodicLoop("job", () -> false, Duration.ofSeconds(-1), true))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Answers each pass from a script, then "nothing more waiting" forever. */
    private static final class ScriptedPass implements Pass {

        private final ConcurrentLinkedQueue<BooleanSupplier> script = new ConcurrentLinkedQueue<>();
        private final AtomicInteger passes = new AtomicInteger();

        static ScriptedPass answering(BooleanSupplier... answers) {
            var pass = new ScriptedPass();
            pass.script.addAll(List.of(answers));
            return pass;
        }

        @Override
        public boolean run() {
            passes.incrementAndGet();
            BooleanSupplier next = script.poll();
            return next != null && next.getAsBoolean();
        }

        int passes() {
            return passes.get();
        }
    }
}
