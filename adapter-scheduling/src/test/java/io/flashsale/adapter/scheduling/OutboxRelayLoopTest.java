package io.flashsale.adapter.scheduling;

import io.flashsale.application.order.port.in.RelayReservationsUseCase;
import io.flashsale.application.order.port.out.EventPublishException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class OutboxRelayLoopTest {

    private static final Duration AN_HOUR = Duration.ofHours(1);
    private static final Duration SHORT = Duration.ofMillis(10);

    private OutboxRelayLoop loop;

    @AfterEach
    void stopLoop() {
        if (loop != null) {
            loop.stop();
        }
    }

    @Test
    void givenWork_whenRunning_thenPassesFollowEachOtherAndOnlyAnEmptyPassWaitsTheInterval() throws InterruptedException {
        var relay = ScriptedRelay.relaying(5, 5, 5);
        loop = new OutboxRelayLoop(relay, "relay-1", AN_HOUR, AN_HOUR, true);

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() == 4);
        Thread.sleep(200);
        assertThat(relay.passes()).as("waiting the interval after the empty fourth pass").isEqualTo(4);
    }

    @Test
    void givenALoopWaitingItsInterval_whenWorkArrives_thenItPassesAtOnce() {
        var relay = ScriptedRelay.relaying();
        loop = new OutboxRelayLoop(relay, "relay-1", AN_HOUR, AN_HOUR, true);
        loop.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() == 1);

        relay.workArrives();

        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() == 2);
    }

    @Test
    void givenALoopBackingOffAfterAFailure_whenWorkArrives_thenItStillWaitsTheBackOff() throws InterruptedException {
        var relay = ScriptedRelay.answering(() -> {
            throw new EventPublishException("broker down", null);
        });
        loop = new OutboxRelayLoop(relay, "relay-1", SHORT, AN_HOUR, true);
        loop.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() == 1);

        relay.workArrives();
        Thread.sleep(200);

        assertThat(relay.passes()).as("no pass within the failure's back-off").isEqualTo(1);
    }

    @Test
    void givenAWaitingLoop_whenStopped_thenItWakesUpAndMakesOneLastPass() {
        var relay = ScriptedRelay.relaying();
        loop = new OutboxRelayLoop(relay, "relay-1", AN_HOUR, AN_HOUR, true);
        loop.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() == 1);

        loop.stop();

        assertThat(relay.passes()).isEqualTo(2);
        assertThat(loop.isRunning()).isFalse();
    }

    @Test
    void givenFailingPasses_whenRunning_thenTheLoopBacksOffAndKeepsGoing() {
        var relay = ScriptedRelay.answering(
                () -> {
                    throw new EventPublishException("broker down", null);
                },
                () -> {
                    throw new IllegalStateException("redis down");
                },
                () -> {
                    throw new LinkageError("a class this pass needs failed to load");
                },
                () -> 3);
        loop = new OutboxRelayLoop(relay, "relay-1", AN_HOUR, SHORT, true);

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() >= 5);
        assertThat(loop.isRunning()).isTrue();
    }

    @Test
    void givenAStoppedLoop_whenStartedAgain_thenItRelaysAgain() {
        var relay = ScriptedRelay.relaying();
        loop = new OutboxRelayLoop(relay, "relay-1", SHORT, SHORT, true);
        loop.start();
        loop.stop();
        int passesWhileStopped = relay.passes();

        loop.start();

        await().atMost(Duration.ofSeconds(5)).until(() -> relay.passes() > passesWhileStopped + 2);
        assertThat(loop.isRunning()).isTrue();
    }

    @Test
    void givenADisabledRelay_whenTheContextStarts_thenTheLoopIsNotStartedAutomatically() {
        loop = new OutboxRelayLoop(ScriptedRelay.relaying(), "relay-1", SHORT, SHORT, false);

        assertThat(loop.isAutoStartup()).isFalse();
        assertThat(loop.isRunning()).isFalse();
        assertThat(loop.getPhase()).isLessThan(Integer.MAX_VALUE - 2048);
    }

    /** Answers each pass from a script, then "nothing to relay" forever. */
    private static final class ScriptedRelay implements RelayReservationsUseCase {

        private final ConcurrentLinkedQueue<IntSupplier> script = new ConcurrentLinkedQueue<>();
        private final AtomicInteger passes = new AtomicInteger();
        private volatile Runnable wake = () -> { };

        static ScriptedRelay relaying(int... relayed) {
            var relay = new ScriptedRelay();
            for (int count : relayed) {
                relay.script.add(() -> count);
            }
            return relay;
        }

        static ScriptedRelay answering(IntSupplier... answers) {
            var relay = new ScriptedRelay();
            relay.script.addAll(List.of(answers));
            return relay;
        }

        @Override
        public int relayPending() {
            passes.incrementAndGet();
            IntSupplier next = script.poll();
            return next == null ? 0 : next.getAsInt();
        }

        @Override
        public void whenWorkArrives(Runnable wake) {
            this.wake = wake;
        }

        void workArrives() {
            wake.run();
        }

        int passes() {
            return passes.get();
        }
    }
}
