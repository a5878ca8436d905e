package io.flashsale.adapter.scheduling;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SingleRunnerPassTest {

    private static final Duration AT_MOST = Duration.ofMinutes(5);
    private static final Duration AT_LEAST = Duration.ofSeconds(54);

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final OneHolderLocks locks = new OneHolderLocks();
    private final AtomicInteger passes = new AtomicInteger();

    @Test
    void givenTheLockFree_whenThePassRuns_thenItRunsHoldingTheLockForAtLeastTheHoldAndIsCounted() {
        SingleRunnerPass pass = new SingleRunnerPass("reconciliation", counted(false), locks, AT_MOST, AT_LEAST,
                meters);

        assertThat(pass.run()).isFalse();

        assertThat(passes).hasValue(1);
        assertThat(locks.taken).singleElement().satisfies(config -> {
            assertThat(config.getName()).isEqualTo("reconciliation");
            assertThat(config.getLockAtMostFor()).isEqualTo(AT_MOST);
            assertThat(config.getLockAtLeastFor()).isEqualTo(AT_LEAST);
        });
        assertThat(locks.releasedHeldAtLeast).containsExactly(AT_LEAST);
        assertThat(count(SingleRunnerPass.RUNS, "reconciliation")).isEqualTo(1);
        assertThat(count(SingleRunnerPass.SKIPPED, "reconciliation")).isZero();
    }

    @Test
    void givenAnotherInstanceHoldsTheLock_whenThePassIsDue_thenItIsSkippedAndCountedAsSuch() {
        locks.heldElsewhere = true;
        SingleRunnerPass pass = new SingleRunnerPass("archive", counted(true), locks, AT_MOST, AT_LEAST, meters);

        assertThat(pass.run()).as("nothing waits here: the holder does the work").isFalse();

        assertThat(passes).hasValue(0);
        assertThat(count(SingleRunnerPass.SKIPPED, "archive")).isEqualTo(1);
        assertThat(count(SingleRunnerPass.RUNS, "archive")).isZero();
    }

    @Test
    void givenAPassThatLeavesWorkWaiting_whenItEnds_thenTheLockIsGivenUpAtOnceSoTheNextPassFollows() {
        SingleRunnerPass pass = new SingleRunnerPass("restore-sweep", counted(true), locks, AT_MOST, AT_LEAST,
                meters);

        assertThat(pass.run()).isTrue();

        assertThat(locks.releasedHeldAtLeast).containsExactly(Duration.ZERO);
    }

    @Test
    void givenAFailingPass_whenItThrows_thenTheLockIsReleasedAndTheFailureGoesToTheLoop() {
        SingleRunnerPass pass = new SingleRunnerPass("warm-up", () -> {
            throw new IllegalStateException("MySQL is down");
        }, locks, AT_MOST, AT_LEAST, meters);

        assertThatThrownBy(pass::run).hasMessage("MySQL is down");

        assertThat(locks.releasedHeldAtLeast).containsExactly(AT_LEAST);
    }

    /**
     * The database did not take the release (cut at that moment): the lock would keep every instance off the job for
     * its longest hold. The instance gives it back before its next pass instead, and then runs that pass.
     */
    @Test
    void givenAReleaseTheDatabaseRefused_whenTheNextPassIsDue_thenTheLockIsGivenBackFirstAndThePassRuns() {
        SingleRunnerPass pass = new SingleRunnerPass("restore-sweep", counted(false), locks, AT_MOST, AT_LEAST,
                meters);
        locks.failingReleases = 2;

        assertThatThrownBy(pass::run).hasMessage("the database did not answer");
        assertThat(passes).hasValue(1);
        assertThatThrownBy(pass::run).as("still unreachable: no pass, the failure to the loop")
                .hasMessage("the database did not answer");
        assertThat(passes).hasValue(1);

        assertThat(pass.run()).isFalse();

        assertThat(passes).hasValue(2);
        assertThat(locks.releasedHeldAtLeast).containsExactly(AT_LEAST, AT_LEAST);
        assertThat(locks.heldElsewhere).isFalse();
    }

    /** Past its longest hold the lock may be another instance's: a late release would free theirs, so none is sent. */
    @Test
    void givenAnUnreleasedLockPastItsLongestHold_whenTheNextPassIsDue_thenItIsNotReleasedLate() throws Exception {
        Duration shortest = SingleRunnerPass.CLOCK_MARGIN.plusMillis(50);
        SingleRunnerPass pass = new SingleRunnerPass("reconciliation", counted(false), locks, shortest,
                Duration.ZERO, meters);
        locks.failingReleases = 1;
        assertThatThrownBy(pass::run).hasMessage("the database did not answer");
        Thread.sleep(150);
        // Expired in the database too: another instance took it.
        locks.heldElsewhere = true;

        assertThat(pass.run()).isFalse();

        assertThat(locks.releasedHeldAtLeast).as("no late release").isEmpty();
        assertThat(locks.heldElsewhere).isTrue();
        assertThat(count(SingleRunnerPass.SKIPPED, "reconciliation")).isEqualTo(1);
    }

    @Test
    void givenAHoldLongerThanTheLongestHold_whenBuilt_thenRefused() {
        assertThatThrownBy(() -> new SingleRunnerPass("archive", counted(false), locks, Duration.ofSeconds(1),
                Duration.ofSeconds(2), meters)).hasMessageContaining("archive");
    }

    private Pass counted(boolean moreWaiting) {
        return () -> {
            passes.incrementAndGet();
            return moreWaiting;
        };
    }

    private double count(String meter, String job) {
        return meters.counter(meter, SingleRunnerPass.JOB, job).count();
    }

    /**
     * A lock that only one caller may hold, recording what was asked of it; how long a released lock stays held is
     * the {@code lockAtLeastFor} of the configuration it was released under, as ShedLock's providers do.
     */
    private static final class OneHolderLocks implements LockProvider {

        final List<LockConfiguration> taken = new ArrayList<>();
        final List<Duration> releasedHeldAtLeast = new ArrayList<>();
        boolean heldElsewhere;
        int failingReleases;

        @Override
        public Optional<SimpleLock> lock(LockConfiguration config) {
            if (heldElsewhere) {
                return Optional.empty();
            }
            heldElsewhere = true;
            taken.add(config);
            return Optional.of(new Held(config));
        }

        private final class Held implements SimpleLock {

            private final LockConfiguration config;

            Held(LockConfiguration config) {
                this.config = config;
            }

            @Override
            public void unlock() {
                if (failingReleases > 0) {
                    failingReleases--;
                    throw new IllegalStateException("the database did not answer");
                }
                releasedHeldAtLeast.add(config.getLockAtLeastFor());
                heldElsewhere = false;
            }

            @Override
            public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
                return Optional.of(new Held(new LockConfiguration(Instant.now(), config.getName(),
                        lockAtMostFor, lockAtLeastFor)));
            }
        }
    }
}
