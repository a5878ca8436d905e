package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

/** Records each sale's loads into the hot store, so that a hot store lacking a loaded sale is known to have lost it. */
public interface ActivityLoadsPort {

    /** Notes, once, that the activity is being loaded into the hot store; written before the load (ADR 30). */
    void recordLoad(ActivityId activityId);

    /**
     * Whether the activity was ever loaded into the hot store: if so, reservations of it may be anywhere in the
     * pipeline, and a hot store that lacks it lost it.
     */
    boolean wasLoaded(ActivityId activityId);
}
