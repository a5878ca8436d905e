package io.flashsale.adapter.metrics;

import io.flashsale.application.order.port.out.OutboxBacklog;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.domain.activity.ActivityId;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * {@value #DEPTH}: outbox entries waiting for the broker (all activities; one entry per reserve call, of one or more
 * reservations, ADR 107), and {@value #OLDEST_AGE}: how long the oldest of them has waited, 0 when none waits. The alert for "the broker is down
 * or the relay stuck" is the age: it grows while reservations keep being accepted. Read when scraped, one script call
 * per activity (O(activities), never O(entries)), at most once per {@code refresh}; a read that fails keeps the last
 * figures.
 */
public final class OutboxBacklogGauges {

    public static final String DEPTH = "flashsale.outbox.depth";
    public static final String OLDEST_AGE = "flashsale.outbox.oldest.age.seconds";

    private static final Logger LOG = LoggerFactory.getLogger(OutboxBacklogGauges.class);

    private final ReservationOutboxPort outbox;
    private final Clock clock;
    private final long refreshNanos;
    private long readAtNanos;
    private boolean read;
    private long depth;
    private double oldestAgeSeconds;

    public OutboxBacklogGauges(ReservationOutboxPort outbox, Clock clock, Duration refresh, MeterRegistry registry) {
        this.outbox = outbox;
        this.clock = clock;
        this.refreshNanos = refresh.toNanos();
        Gauge.builder(DEPTH, this, gauges -> gauges.current().depth)
                .description("outbox entries (reserve calls of one or more reservations) waiting for the broker")
                .register(registry);
        Gauge.builder(OLDEST_AGE, this, gauges -> gauges.current().oldestAgeSeconds)
                .description("how long the oldest entry waiting in an outbox has waited")
                .baseUnit("seconds")
                .register(registry);
    }

    private synchronized OutboxBacklogGauges current() {
        long now = System.nanoTime();
        if (!read || now - readAtNanos >= refreshNanos) {
            readAtNanos = now;
            read = true;
            try {
                long total = 0;
                Instant oldest = null;
                for (ActivityId activityId : outbox.activities()) {
                    OutboxBacklog backlog = outbox.backlog(activityId);
                    total += backlog.depth();
                    if (backlog.oldestWaiting() != null && (oldest == null || backlog.oldestWaiting().isBefore(oldest))) {
                        oldest = backlog.oldestWaiting();
                    }
                }
                depth = total;
                oldestAgeSeconds = oldest == null ? 0
                        : Math.max(0, Duration.between(oldest, clock.instant()).toMillis() / 1000.0);
            } catch (RuntimeException unavailable) {
                LOG.debug("outbox backlog not read, the gauges keep their last figures", unavailable);
            }
        }
        return this;
    }
}
