package io.flashsale.application.order.service;

import io.flashsale.application.order.port.in.RelayReservationsUseCase;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OutboxEntry;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.domain.activity.ActivityId;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves accepted reservations from the hot store's outbox to the broker. An entry is acknowledged only
 * after the broker acknowledged it, so a crash anywhere leaves it pending; another relay (or this one,
 * restarted) claims it once it has been idle for {@code staleAfter}. The price is a possible duplicate
 * on the broker, which the order consumer absorbs. A pass that could not publish some activity's entries still
 * relays the other activities, then throws the {@link EventPublishException}.
 */
public class OutboxRelayService implements RelayReservationsUseCase {

    private final ReservationOutboxPort outbox;
    private final ReservationEventPublisherPort publisher;
    private final OrderPipelineMetricsPort metrics;
    private final String relayName;
    private final Duration staleAfter;
    private final int batchSize;

    public OutboxRelayService(ReservationOutboxPort outbox, ReservationEventPublisherPort publisher, OrderPipelineMetricsPort metrics,
                              String relayName, Duration staleAfter, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive");
        }
        this.outbox = outbox;
        this.publisher = publisher;
        this.metrics = metrics;
        this.relayName = relayName;
        this.staleAfter = staleAfter;
        this.batchSize = batchSize;
    }

    /** How long an entry stays pending with a relay before another relay may claim it. */
    public Duration staleAfter() {
        return staleAfter;
    }

    /** One pass over every registered outbox, at a cost in proportion to their number. */
    @Override
    public int relayPending() {
        int relayed = 0;
        EventPublishException failure = null;
        for (ActivityId activityId : outbox.activities()) {
            try {
                relayed += relayBatch(activityId);
            } catch (EventPublishException notAcknowledged) {
                // One activity's entries stay pending; the others are still relayed in this pass.
                if (failure == null) {
                    failure = notAcknowledged;
                } else {
                    failure.addSuppressed(notAcknowledged);
                }
            }
        }
        if (relayed > 0) {
            metrics.relayed(relayed);
        }
        if (failure != null) {
            throw failure;
        }
        return relayed;
    }

    /**
     * One activity's outbox: at most {@code batchSize} entries, stale ones first, then new ones. Returns how many were
     * relayed; throws {@link EventPublishException} when the broker did not acknowledge them (they stay pending).
     */
    public int relay(ActivityId activityId) {
        int relayed = relayBatch(activityId);
        if (relayed > 0) {
            metrics.relayed(relayed);
        }
        return relayed;
    }

    private int relayBatch(ActivityId activityId) {
        List<OutboxEntry> entries = new ArrayList<>(outbox.claimStale(activityId, relayName, staleAfter, batchSize));
        if (entries.size() < batchSize) {
            entries.addAll(outbox.readNew(activityId, relayName, batchSize - entries.size()));
        }
        if (entries.isEmpty()) {
            return 0;
        }
        // Throws when the broker did not acknowledge: the entries stay pending and are claimed again later.
        // The positions travel with the acknowledgement, so reconciliation can tell where each event is (ADR 29).
        List<EventPosition> positions = publisher.publishAt(entries.stream().map(OutboxEntry::reservation).toList());
        outbox.acknowledge(activityId, entries, positions);
        return entries.size();
    }
}
