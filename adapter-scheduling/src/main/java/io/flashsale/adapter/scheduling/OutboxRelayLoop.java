package io.flashsale.adapter.scheduling;

import io.flashsale.application.order.port.in.RelayReservationsUseCase;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;

/**
 * The outbox relay's background thread: pass after pass, at once again while there is work, after {@code interval}
 * when a pass found nothing, unless the relay says work arrived first, after {@code failureBackoff} when a pass failed
 * (whatever it left pending is claimed again later). On shutdown it makes one last pass for reservations accepted
 * before the web server stopped.
 */
public final class OutboxRelayLoop implements SmartLifecycle {

    private final PeriodicLoop loop;
    private final String relayName;

    public OutboxRelayLoop(RelayReservationsUseCase relay, String relayName, Duration interval, Duration failureBackoff,
                           boolean autoStartup) {
        this.relayName = relayName;
        this.loop = new PeriodicLoop("outbox-relay " + relayName, () -> relay.relayPending() > 0, interval,
                failureBackoff, true, autoStartup);
        relay.whenWorkArrives(loop::wake);
    }

    @Override
    public void start() {
        loop.start();
    }

    /** Returns once the thread has finished its last pass. */
    @Override
    public void stop() {
        loop.stop();
    }

    @Override
    public boolean isRunning() {
        return loop.isRunning();
    }

    @Override
    public boolean isAutoStartup() {
        return loop.isAutoStartup();
    }

    @Override
    public int getPhase() {
        return loop.getPhase();
    }

    public String relayName() {
        return relayName;
    }
}
