package io.flashsale.application.sale.model;

import java.time.Instant;

/** How an attempt to archive an activity ended; every refusal leaves the hot store and the database as they were. */
public sealed interface ArchiveOutcome {

    /** This attempt archived it. */
    record Archived(Instant archivedAt) implements ArchiveOutcome {
    }

    /** It was archived before (by an earlier attempt or another instance); nothing changed. */
    record AlreadyArchived(Instant archivedAt) implements ArchiveOutcome {
    }

    /** The sale is still open or has not started. */
    record NotEnded(Instant endsAt) implements ArchiveOutcome {
    }

    /** Reservations accepted by the hot store that have no order yet (still RESERVED). */
    record StillReserved(long reservations) implements ArchiveOutcome {
    }

    /** The outbox holds accepted reservations the relays have not handed to the order pipeline yet. */
    record OutboxNotDrained() implements ArchiveOutcome {
    }

    /**
     * Reservations the buyer cancelled while RESERVED whose events the order pipeline has not recorded yet: it must
     * still find them cancelled in the hot store, or it would make them orders.
     */
    record CancellationsUnsettled(long reservations) implements ArchiveOutcome {
    }

    record NotFound() implements ArchiveOutcome {
    }
}
