package io.flashsale.adapter.kafka;

import io.flashsale.application.outage.port.out.DatabaseProbePort;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.DefaultBackOffHandler;
import org.springframework.kafka.listener.MessageListenerContainer;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The error handler's wait between two attempts (spring-kafka's {@link BackOffHandler}). For a store out of reach the
 * wait is back-pressure (ADR 78): the listener container is paused, so its consumers keep polling (and their place in
 * the group) but take no records; the database is probed every {@code nextBackOff}; and the container is resumed
 * once it answers, when the failed batch, sought back by the error handler, comes again. Any other failure waits as
 * spring-kafka's default does: the consumer thread sleeps, stoppably, for the back-off.
 */
final class DatabaseProbingBackOffHandler implements BackOffHandler, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseProbingBackOffHandler.class);

    private final DatabaseProbePort database;
    private final BackOffHandler sleeping = new DefaultBackOffHandler();
    private final Set<MessageListenerContainer> held = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService prober = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "order-consumer-database-probe");
        thread.setDaemon(true);
        return thread;
    });

    DatabaseProbingBackOffHandler(DatabaseProbePort database) {
        this.database = database;
    }

    @Override
    public void onNextBackOff(MessageListenerContainer container, Exception exception, long nextBackOff) {
        if (container == null || exception == null || !StoreOutages.isIn(exception)) {
            sleeping.onNextBackOff(container, exception, nextBackOff);
            return;
        }
        if (!held.add(container)) {
            // Another consumer of the container met the outage first: the container is held and probed already.
            return;
        }
        container.pause();
        long since = System.nanoTime();
        LOG.warn("the order consumer's stores are out of reach: {} held, the database probed every {} ms",
                container.getListenerId(), nextBackOff);
        prober.schedule(() -> probe(container, Duration.ofMillis(nextBackOff), since), nextBackOff,
                TimeUnit.MILLISECONDS);
    }

    /** Whether a container is held right now, waiting for the database. */
    boolean holds(MessageListenerContainer container) {
        return held.contains(container);
    }

    private void probe(MessageListenerContainer container, Duration every, long since) {
        boolean answers;
        try {
            answers = !container.isRunning() || database.answers();
        } catch (RuntimeException probeFailed) {
            answers = false;
        }
        if (!answers) {
            prober.schedule(() -> probe(container, every, since), every.toMillis(), TimeUnit.MILLISECONDS);
            return;
        }
        held.remove(container);
        container.resume();
        LOG.info("the database answers again: {} taken up after {} ms held", container.getListenerId(),
                (System.nanoTime() - since) / 1_000_000);
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
