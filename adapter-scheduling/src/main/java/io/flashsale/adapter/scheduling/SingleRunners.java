package io.flashsale.adapter.scheduling;

import io.micrometer.core.instrument.MeterRegistry;
import net.javacrumbs.shedlock.core.LockProvider;

import java.time.Duration;
import java.util.function.Function;

/** Makes a job's pass a {@link SingleRunnerPass}, or leaves it as it is where the lock is configured off. */
public final class SingleRunners {

    private final LockProvider locks;
    private final Duration atMostFor;
    private final Function<Duration, Duration> atLeastFor;
    private final MeterRegistry meters;
    private final boolean enabled;

    /** @param atLeastFor how long the lock is held at least, for a job run every given interval */
    public SingleRunners(LockProvider locks, Duration atMostFor, Function<Duration, Duration> atLeastFor,
                         MeterRegistry meters, boolean enabled) {
        this.locks = locks;
        this.atMostFor = atMostFor;
        this.atLeastFor = atLeastFor;
        this.meters = meters;
        this.enabled = enabled;
    }

    /** The pass of {@code job}, run every {@code interval}, on one instance at a time. */
    public Pass guard(String job, Pass pass, Duration interval) {
        return enabled ? new SingleRunnerPass(job, pass, locks, atMostFor, atLeastFor.apply(interval), meters) : pass;
    }
}
