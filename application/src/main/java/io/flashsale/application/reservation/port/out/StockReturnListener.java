package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.activity.ActivityId;

/** Called by {@link StockReturnsPort}; must not block: it runs on the notifying thread. */
public interface StockReturnListener {

    /** Units of this activity may be available again. */
    void returned(ActivityId activityId);

    /** Notices may have been missed (the channel was down): nothing remembered can be trusted any more. */
    void missedSome();
}
