package io.flashsale.application.order.port.out;

import io.flashsale.domain.activity.ActivityId;

/** Called by {@link OutboxNewsPort}; must not block: it runs on the reserving or the notifying thread. */
public interface OutboxNewsListener {

    /** The activity's outbox has at least one entry appended since its last notice. */
    void news(ActivityId activityId);

    /** Notices may have been missed (the channel was down or just (re)connected): every outbox may have news. */
    void missedSome();
}
