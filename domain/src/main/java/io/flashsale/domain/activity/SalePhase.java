package io.flashsale.domain.activity;

/** Where a sale stands in its window at a given instant: [startsAt, endsAt). */
public enum SalePhase {
    NOT_STARTED,
    OPEN,
    ENDED
}
