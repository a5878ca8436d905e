package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

/** Called by {@link SaleChangesPort}; must not block: it runs on the notifying thread. */
public interface SaleChangeListener {

    /** What a read of this sale shows may have changed: anything remembered of it is stale. */
    void changed(ActivityId activityId);

    /** Notices may have been missed (the channel was down): nothing remembered can be trusted any more. */
    void missedSome();
}
