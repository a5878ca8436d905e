package io.flashsale.bootstrap.relay;

import io.flashsale.application.port.in.RelayReservationsUseCase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * One background thread that relays the outbox pass after pass: at once again while there is work, after
 * {@code interval} when a pass found nothing, after {@code failureBackoff} when a pass failed. It never dies of a
 * failure; whatever a failed pass left pending is claimed again later. Started with the context and stopped on
 * shutdown after one last pass; it may be stopped and started again.
 */
public final class OutboxRelayLoop implements SmartLifecycle {

    /** Below the web server's phases: stopped only after the server stopped taking reservations. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    private static final Logger LOG = LoggerFactory.getLogger(OutboxRelayLoop.class);
    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    private final RelayReservationsUseCase relay;
    private final String relayName;
    private final long intervalNanos;
    private final long failureBackoffNanos;
    private final boolean autoStartup;

    private volatile boolean running;
    private Thread thread;

    public OutboxRelayLoop(RelayReservationsUseCase relay, String relayName, Duration interval, Duration failureBackoff,
                           boolean autoStartup) {
        this.relay = relay;
        this.relayName = relayName;
        this.intervalNanos = interval.toNanos();
        this.failureBackoffNanos = failureBackoff.toNanos();
        this.autoStartup = autoStartup;
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        thread = Thread.ofPlatform().name("outbox-relay").daemon().start(this::run);
        LOG.info("Outbox relay {} started", relayName);
    }

    /** Returns once the thread has finished its last pass. */
    @Override
    public synchronized void stop() {
        if (!running) {
            return;
        }
        running = false;
        LockSupport.unpark(thread);
        try {
            if (!thread.join(STOP_WAIT)) {
                LOG.warn("Outbox relay {} did not finish its last pass within {}", relayName, STOP_WAIT);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Outbox relay {} stopped", relayName);
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

    public String relayName() {
        return relayName;
    }

    private void run() {
        while (running) {
            long pause = pass();
            // An interrupt would make every park return at once: the loop would spin instead of waiting.
            Thread.interrupted();
            if (pause > 0 && running) {
                LockSupport.parkNanos(this, pause);
            }
        }
        // Reservations accepted since the last pass, before the web server stopped taking them.
        pass();
    }

    /** One pass; returns how long to wait before the next one. */
    private long pass() {
        try {
            return relay.relayPending() > 0 ? 0 : intervalNanos;
        } catch (VirtualMachineError fatal) {
            throw fatal;
        } catch (Throwable failure) {
            LOG.warn("Outbox relay {} pass failed, next try in {} ms: {}", relayName,
                    Duration.ofNanos(failureBackoffNanos).toMillis(), failure.toString());
            LOG.debug("Outbox relay pass failure", failure);
            return failureBackoffNanos;
        }
    }
}
