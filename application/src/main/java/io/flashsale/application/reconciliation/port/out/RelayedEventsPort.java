package io.flashsale.application.reconciliation.port.out;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The hot store's half of a reservation's place in the pipeline: whether its event still waits in the outbox, and
 * where the broker stored it once the relay's publish was acknowledged.
 */
public interface RelayedEventsPort {

    /** The broker positions recorded for those of {@code ids} that have one (relayed and acknowledged). */
    Map<ReservationId, EventPosition> positions(ActivityId activityId, Collection<ReservationId> ids);

    /** Those of {@code ids} whose event waits in the outbox now: not read by a relay yet, or read and unacknowledged. */
    Set<ReservationId> unrelayed(ActivityId activityId, Collection<ReservationId> ids);

    /**
     * Appends the event of a reservation that is still RESERVED to the outbox again, in one atomic step that also
     * checks it is where the caller found it: its recorded position is still {@code seenAt} (none when empty) and it
     * was not re-driven within {@code window}. A re-drive clears the position; the new event records its own.
     */
    boolean redrive(ReservationId reservationId, Optional<EventPosition> seenAt, Duration window);

    /** True when the activity has no outbox or the relays acknowledged all of it: nothing pending, nothing unread. */
    boolean outboxDrained(ActivityId activityId);

    /**
     * A hot store with no view of its outbox (the in-memory reference, unit tests): reconciliation judges a
     * reservation's event by its age and re-drives it through the hot store itself, and nothing waits for an outbox.
     * Its answers (no positions, nothing unrelayed, nothing re-driven, every outbox drained) are what such a store
     * would say; the services recognise it and take the age-based path.
     */
    RelayedEventsPort NONE = new RelayedEventsPort() {
        @Override
        public Map<ReservationId, EventPosition> positions(ActivityId activityId, Collection<ReservationId> ids) {
            return Map.of();
        }

        @Override
        public Set<ReservationId> unrelayed(ActivityId activityId, Collection<ReservationId> ids) {
            return Set.of();
        }

        @Override
        public boolean redrive(ReservationId reservationId, Optional<EventPosition> seenAt, Duration window) {
            return false;
        }

        @Override
        public boolean outboxDrained(ActivityId activityId) {
            return true;
        }
    };
}
