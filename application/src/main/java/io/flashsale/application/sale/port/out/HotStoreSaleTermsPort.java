package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.time.Instant;

/**
 * The hot store's copy of a sale's pause and window, which its reservation script decides every attempt by (ADR 79).
 * Each call writes only what it names, and only when the hot store holds the sale: one it does not hold takes both
 * from the database of record when it is loaded.
 */
public interface HotStoreSaleTermsPort {

    /** False when the hot store does not hold the sale. */
    boolean applyPaused(ActivityId activityId, boolean paused);

    /** False when the hot store does not hold the sale. */
    boolean applyWindow(ActivityId activityId, Instant startsAt, Instant endsAt);
}
