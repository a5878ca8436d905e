package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Keeps which sales are archived and when: an archived sale is never loaded again (ADR 10). */
public interface ActivityArchivesPort {

    /** Activities ended by {@code now} ({@code endsAt <= now}) and not archived, earliest end first. */
    List<ActivityId> findEndedUnarchived(Instant now);

    /** When the activity was archived; empty when it is not archived or does not exist. */
    Optional<Instant> archivedAt(ActivityId activityId);

    /**
     * Records the activity as archived at {@code at}, once. False when it was archived already, does not exist, or
     * has not ended by {@code at}.
     */
    boolean markArchived(ActivityId activityId, Instant at);
}
