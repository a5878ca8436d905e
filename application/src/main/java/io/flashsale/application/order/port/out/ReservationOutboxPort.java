package io.flashsale.application.order.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The outbox the reserve script appends to in the same atomic step that deducts stock. Relays read it as a
 * consumer group: an entry stays pending until acknowledged, so a relay that dies leaves nothing behind.
 *
 * <p>A store may keep the reservations accepted together in one of its entries (ADR 107): they are read, claimed and
 * acknowledged together, and share their {@link OutboxEntry#entryId()}. {@code max} counts the store's entries, so a
 * read may give more reservations than {@code max}; a caller acknowledges every reservation of an entry it read or
 * none (acknowledging one acknowledges them all).
 */
public interface ReservationOutboxPort {

    /** Activities whose outbox may hold entries (every warmed-up activity until it is archived). */
    Set<ActivityId> activities();

    /** Entries no relay has read yet, at most {@code max} of the store's; they become pending for {@code relay}. */
    List<OutboxEntry> readNew(ActivityId activityId, String relay, int max);

    /** Entries pending longer than {@code minIdle} with any relay (a dead one, or this one after a failure), now owned by {@code relay}. */
    List<OutboxEntry> claimStale(ActivityId activityId, String relay, Duration minIdle, int max);

    /** Marks entries delivered; the outbox may then drop them, and only them. */
    void acknowledge(ActivityId activityId, List<OutboxEntry> entries);

    /**
     * Whether the activity's outbox holds entries not yet acknowledged (read by no relay, or pending with one), in one
     * cheap call: the sweep's probe. True also when it cannot tell; false when the activity has no outbox.
     */
    boolean hasEntriesWaiting(ActivityId activityId);

    /** The activity's entries not yet acknowledged and the age of the oldest, at a cost independent of their number. */
    OutboxBacklog backlog(ActivityId activityId);
    /**
     * As {@link #acknowledge(ActivityId, List)}, recording with each entry's reservation where the broker stored its
     * event ({@code positions} in the order of {@code entries}, or empty when the broker told none), in the same
     * atomic step: a reservation is never out of the outbox without its position.
     */
    default void acknowledge(ActivityId activityId, List<OutboxEntry> entries, List<EventPosition> positions) {
        acknowledge(activityId, entries);
    }
}
