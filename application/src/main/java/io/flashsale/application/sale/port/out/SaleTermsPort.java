package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.time.Instant;

/** A sale's pause and window in the database of record, the truth a warm-up or a rebuild loads (ADR 79). */
public interface SaleTermsPort {

    /** Records the sale as paused or not; false when there is no such sale. */
    boolean recordPaused(ActivityId activityId, boolean paused);

    /**
     * Moves the window to [{@code startsAt}, {@code endsAt}) only if it is still [{@code fromStartsAt},
     * {@code fromEndsAt}) (as read when the move was judged); false otherwise, and nothing changes.
     */
    boolean recordWindow(ActivityId activityId, Instant fromStartsAt, Instant fromEndsAt, Instant startsAt,
                         Instant endsAt);
}
