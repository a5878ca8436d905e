package io.flashsale.application.order.port.out;

import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.List;

/**
 * The orders the database closed and restored whose units the hot store still has to give back: what is due, and what
 * came of each try.
 */
public interface RestoreQueuePort {

    /** Orders that gave their units back here but not yet in the hot store, due by {@code now}, oldest first. */
    List<PendingRestore> dueHotStoreRestores(Instant now, int max);

    /** The hot store has nothing left to give back for this order. */
    void hotStoreRestored(ReservationId reservationId);

    /** The hot store has nothing left to give back for these orders: one statement. */
    void hotStoreRestoredAll(List<ReservationId> reservationIds);

    /** The hot store cannot take the restore yet: try again from {@code retryAt}. No effect on a finished restore. */
    void postponeHotStoreRestore(ReservationId reservationId, Instant retryAt);
}
