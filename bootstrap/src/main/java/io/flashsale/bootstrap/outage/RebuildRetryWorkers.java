package io.flashsale.bootstrap.outage;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The threads the recovery's rebuild retries run on (ADR 62), a few at once: after Redis came back empty, every open
 * sale of the instance may wait for its rebuild, and one big sale's rebuild must not hold up the small ones. Bounded,
 * so that the retries never put more than this many rebuild reads on the database at a time. Not an {@code Executor}
 * bean, so that Spring Boot's own task executor stays as it is.
 */
public final class RebuildRetryWorkers implements AutoCloseable {

    private final ExecutorService threads;

    public RebuildRetryWorkers(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("at least one rebuild retry worker");
        }
        this.threads = Executors.newFixedThreadPool(workers,
                Thread.ofPlatform().name("rebuild-retry-", 0).daemon().factory());
    }

    public void execute(Runnable retry) {
        threads.execute(retry);
    }

    /** A retry cut short is asked again by the next recovery: the sale keeps answering NOT_READY meanwhile. */
    @Override
    public void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(5, TimeUnit.SECONDS);
    }
}
