package io.flashsale.adapter.scheduling;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A pass that runs on one instance at a time: it first takes its job's lock (ShedLock, on the database of record), and
 * an instance that finds the lock taken skips the pass and tries again an interval later. The lock is held at least
 * {@code atLeastFor} from when it was taken, so that the instances together run the job about once per interval, not
 * once each; a pass that says more work is waiting gives the lock up at once, so the next pass follows without a
 * wait, here or elsewhere. An instance that dies holding the lock holds it {@code atMostFor} at most.
 * <p>
 * A release the database did not take (cut or black-holed in that moment) would keep every instance off the job for
 * {@code atMostFor}, five minutes by default: the fault campaign saw the restore sweep and the reconciliation stopped
 * that long after one database cut, with units withheld in Redis all the while. So the instance keeps such a lock and
 * gives it back before its next pass, for as long as it is surely still its own (before {@code atMostFor} ran out:
 * ShedLock's release does not check the holder, and past that another instance may hold it).
 * Counts {@value #RUNS} and {@value #SKIPPED} per {@value #JOB}.
 */
public final class SingleRunnerPass implements Pass {

    public static final String RUNS = "flashsale.jobs.runs";
    public static final String SKIPPED = "flashsale.jobs.skipped";
    public static final String JOB = "job";
    /** Kept off the end of a lock's life before it is given back late: the database's clock may be a little ahead. */
    static final Duration CLOCK_MARGIN = Duration.ofSeconds(1);

    private final String job;
    private final Pass pass;
    private final LockProvider locks;
    private final Duration atMostFor;
    private final Duration atLeastFor;
    private final Counter runs;
    private final Counter skipped;
    private SimpleLock unreleased;
    private Instant unreleasedUntil;

    /**
     * @param job        the lock's name, the same on every instance
     * @param atLeastFor not above {@code atMostFor}
     */
    public SingleRunnerPass(String job, Pass pass, LockProvider locks, Duration atMostFor, Duration atLeastFor,
                            MeterRegistry meters) {
        if (atLeastFor.isNegative() || atLeastFor.compareTo(atMostFor) > 0) {
            throw new IllegalArgumentException("the lock of " + job + " is held at least " + atLeastFor
                    + ", which must be between zero and its longest hold " + atMostFor);
        }
        this.job = job;
        this.pass = pass;
        this.locks = locks;
        this.atMostFor = atMostFor;
        this.atLeastFor = atLeastFor;
        this.runs = Counter.builder(RUNS).tag(JOB, job)
                .description("Passes of a scheduled job this instance ran, holding the job's lock").register(meters);
        this.skipped = Counter.builder(SKIPPED).tag(JOB, job)
                .description("Passes of a scheduled job this instance left out: another instance held its lock")
                .register(meters);
    }

    @Override
    public boolean run() {
        releaseLeftover();
        Instant takenAt = Instant.now();
        Optional<SimpleLock> lock = locks.lock(new LockConfiguration(takenAt, job, atMostFor, atLeastFor));
        if (lock.isEmpty()) {
            skipped.increment();
            return false;
        }
        runs.increment();
        boolean moreWaiting = false;
        try {
            moreWaiting = pass.run();
            return moreWaiting;
        } finally {
            release(lock.get(), moreWaiting, takenAt);
        }
    }

    private void release(SimpleLock lock, boolean moreWaiting, Instant takenAt) {
        SimpleLock held = lock;
        Instant ownUntil = takenAt.plus(atMostFor).minus(CLOCK_MARGIN);
        try {
            if (moreWaiting) {
                // Released now rather than atLeastFor after it was taken: the work waiting is taken up at once.
                Optional<SimpleLock> shortened = lock.extend(atMostFor, Duration.ZERO);
                if (shortened.isEmpty()) {
                    return;
                }
                held = shortened.get();
                ownUntil = Instant.now().plus(atMostFor).minus(CLOCK_MARGIN);
            }
            held.unlock();
        } catch (RuntimeException notTaken) {
            unreleased = held;
            unreleasedUntil = ownUntil;
            throw notTaken;
        }
    }

    /** Gives back a lock whose release failed, while it is surely still this instance's; throws if it fails again. */
    private void releaseLeftover() {
        if (unreleased == null) {
            return;
        }
        if (!Instant.now().isBefore(unreleasedUntil)) {
            // Expired by itself: another instance may hold the lock by now.
            unreleased = null;
            return;
        }
        unreleased.unlock();
        unreleased = null;
    }
}
