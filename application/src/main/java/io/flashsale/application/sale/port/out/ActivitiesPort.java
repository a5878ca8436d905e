package io.flashsale.application.sale.port.out;

import io.flashsale.application.sale.model.ActivityAlreadyExistsException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.stock.SkuStock;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Activities in the database of record. */
public interface ActivitiesPort extends ActivityLookupPort, UnarchivedActivitiesPort {

    /** @throws ActivityAlreadyExistsException when the id is taken */
    void add(Activity activity);

    @Override
    Optional<Activity> findById(ActivityId activityId);

    /**
     * Activities not archived whose window [startsAt, endsAt) meets [from, to]: they start by {@code to} and have not
     * ended at {@code from}. Earliest start first.
     */
    List<Activity> findUnarchivedOverlapping(Instant from, Instant to);

    /** Activities ended by {@code now} ({@code endsAt <= now}) and not archived, earliest end first. */
    List<ActivityId> findEndedUnarchived(Instant now);

    /** When the activity was archived; empty when it is not archived or does not exist. */
    Optional<Instant> archivedAt(ActivityId activityId);

    /**
     * Records the activity as archived at {@code at}, once. False when it was archived already, does not exist, or
     * has not ended by {@code at}.
     */
    boolean markArchived(ActivityId activityId, Instant at);

    /**
     * The ledgers as the database of record keeps them, in item order: the item's stock as total, the units of
     * placed orders as sold, nothing reserved. Empty when there is no such activity.
     */
    Optional<List<SkuStock>> recordedStock(ActivityId activityId);

    /** Notes, once, that the activity is being loaded into the hot store; written before the load (ADR 30). */
    void recordLoad(ActivityId activityId);

    /**
     * Whether the activity was ever loaded into the hot store: if so, reservations of it may be anywhere in the
     * pipeline, and a hot store that lacks it lost it.
     */
    boolean wasLoaded(ActivityId activityId);
}
