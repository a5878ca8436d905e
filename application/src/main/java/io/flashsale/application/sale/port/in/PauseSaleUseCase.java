package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;

/**
 * An operator stops a sale's attempts for a while, and lets them in again (ADR 79). Both are safe to repeat; the
 * database of record keeps the state, the hot store decides the attempts by it, every instance hears of it.
 */
public interface PauseSaleUseCase {

    /**
     * @return the sale as recorded now
     * @throws ActivityNotFoundException when there is no such sale
     * @throws ActivityArchivedException when it was archived
     */
    Activity pause(ActivityId activityId);

    /** As {@link #pause}, the other way. */
    Activity resume(ActivityId activityId);
}
