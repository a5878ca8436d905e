package io.flashsale.adapter.outage;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A few threads for the way back from a Redis outage, one pool per use: the recovery brings the instance's sales back
 * on one ({@link HotStoreRecovery}), the rebuild retries run on another (ADR 62). After Redis came back empty, every
 * sale of the instance may wait for its rebuild, and one big sale must not hold up the small ones. Bounded, so that
 * they never put more than this many rebuild or reconciliation reads on the database at a time. Not an
 * {@code Executor}: as a bean, one would make Spring Boot's own task executor back off.
 */
public final class OutageWorkers implements AutoCloseable {

    private final ExecutorService threads;

    /** @param name the threads' name, a number appended */
    public OutageWorkers(String name, int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("at least one " + name + " worker");
        }
        this.threads = Executors.newFixedThreadPool(workers,
                Thread.ofPlatform().name(name + "-", 0).daemon().factory());
    }

    public void execute(Runnable task) {
        threads.execute(task);
    }

    /** Work cut short is asked again by the next recovery: a sale keeps answering NOT_READY or DEGRADED meanwhile. */
    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(5, TimeUnit.SECONDS);
    }
}
