package io.flashsale.bootstrap.schedule;

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
 * Counts {@value #RUNS} and {@value #SKIPPED} per {@value #JOB}.
 */
public final class SingleRunnerPass implements Pass {

    public static final String RUNS = "flashsale.jobs.runs";
    public static final String SKIPPED = "flashsale.jobs.skipped";
    public static final String JOB = "job";

    private final String job;
    private final Pass pass;
    private final LockProvider locks;
    private final Duration atMostFor;
    private final Duration atLeastFor;
    private final Counter runs;
    private final Counter skipped;

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
        Optional<SimpleLock> lock = locks.lock(new LockConfiguration(Instant.now(), job, atMostFor, atLeastFor));
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
            release(lock.get(), moreWaiting);
        }
    }

    private void release(SimpleLock lock, boolean moreWaiting) {
        SimpleLock held = lock;
        if (moreWaiting) {
            // Released now rather than atLeastFor after it was taken: the work waiting is taken up at once.
            Optional<SimpleLock> shortened = lock.extend(atMostFor, Duration.ZERO);
            if (shortened.isEmpty()) {
                return;
            }
            held = shortened.get();
        }
        held.unlock();
    }
}
