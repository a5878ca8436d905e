package io.flashsale.adapter.scheduling;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * One background thread that runs a {@link Pass} every {@code interval}, and at once again when a pass says more work
 * is waiting. A failed pass is logged and the next one comes after {@code failureBackoff}: the loop never dies of a
 * failure. It may make one last pass after it was told to stop, for work that arrived while it was stopping.
 * Every job it runs is safe on any number of instances at once; the heavy ones take a lock first so that only one
 * instance does the work ({@link SingleRunnerPass}). Started with the context,
 * stopped on shutdown once the pass under way has finished; it may be stopped and started again.
 */
public final class PeriodicLoop implements SmartLifecycle {

    /** Below the web server's phases, as the outbox relay: stopped only after the server stopped taking requests. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Logger LOG = LoggerFactory.getLogger(PeriodicLoop.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final String name;
    private final Pass pass;
    private final Duration interval;
    private final Duration failureBackoff;
    private final boolean finalPassOnStop;
    private final boolean autoStartup;

    private volatile boolean running;
    private volatile Thread thread;

    /** @param autoStartup false: the loop runs only when started by hand (configured off) */
    public PeriodicLoop(String name, Pass pass, Duration interval, boolean autoStartup) {
        this(name, pass, interval, interval, false, autoStartup);
    }

    /** @param finalPassOnStop true: {@link #stop()} returns after one more pass */
    public PeriodicLoop(String name, Pass pass, Duration interval, Duration failureBackoff, boolean finalPassOnStop,
                        boolean autoStartup) {
        requirePositive(name, "interval", interval);
        requirePositive(name, "failure back-off", failureBackoff);
        this.name = name;
        this.pass = pass;
        this.interval = interval;
        this.failureBackoff = failureBackoff;
        this.finalPassOnStop = finalPassOnStop;
        this.autoStartup = autoStartup;
    }

    private static void requirePositive(String name, String what, Duration duration) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("the " + what + " of " + name + " must be positive, was " + duration);
        }
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = Thread.ofPlatform().name(name).daemon().start(this::run);
        LOG.info("{} started, every {}", name, interval);
    }

    /** Returns once the pass under way (if any) has finished. */
    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            if (!thread.join(STOP_WAIT)) {
                LOG.warn("{} did not finish its pass within {}", name, STOP_WAIT);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        LOG.info("{} stopped", name);
    }

    /** Ends the pause after a pass, or the next one if a pass is under way; never blocks. */
    public void wake() {
        Thread current = thread;
        if (current != null) {
            LockSupport.unpark(current);
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    public String name() {
        return name;
    }

    private void run() {
        while (running) {
            Next next = runPass();
            // An interrupt would make every park return at once: the loop would spin instead of waiting.
            Thread.interrupted();
            if (next == Next.AFTER_FAILURE) {
                pauseFully(failureBackoff);
            } else if (next == Next.AFTER_INTERVAL && running) {
                // Ended early by wake() or stop().
                LockSupport.parkNanos(this, interval.toNanos());
            }
        }
        if (finalPassOnStop) {
            runPass();
        }
    }

    /** A failure's back-off is not ended by {@link #wake()}: work arriving would otherwise make it no back-off. */
    private void pauseFully(Duration pause) {
        long until = System.nanoTime() + pause.toNanos();
        for (long left = pause.toNanos(); left > 0 && running; left = until - System.nanoTime()) {
            LockSupport.parkNanos(this, left);
        }
    }

    private enum Next { AT_ONCE, AFTER_INTERVAL, AFTER_FAILURE }

    /** One pass; says when the next one comes. */
    private Next runPass() {
        try {
            return pass.run() ? Next.AT_ONCE : Next.AFTER_INTERVAL;
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable failure) {
            LOG.warn("{} pass failed, next try in {}: {}", name, failureBackoff, failure.toString());
            LOG.debug("{} pass failure", name, failure);
            return Next.AFTER_FAILURE;
        }
    }
}
