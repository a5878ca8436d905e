package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.Optional;

/** What the hot store said when asked to start rebuilding an activity it lost. */
public sealed interface RebuildStart {

    /**
     * This caller runs the rebuild, as {@code rebuildId}, from the order after {@code after} (empty: from the first;
     * set when it took over a rebuild whose runner stopped). {@code since} is when the rebuild first began, by the
     * clock of the caller that began it: the orders the database closed from then on are caught up at the end.
     */
    record Started(String rebuildId, Optional<ReservationId> after, Instant since) implements RebuildStart {
    }

    /** The hot store holds the activity (warmed up, or rebuilt by another instance): nothing to do. */
    record Loaded() implements RebuildStart {
    }

    /** Another runner is rebuilding it and still beats within the lease. */
    record Rebuilding() implements RebuildStart {
    }

    /** The outbox still holds accepted reservations on their way to the order pipeline: the rebuild waits for them. */
    record OutboxPending() implements RebuildStart {
    }
}
