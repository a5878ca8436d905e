package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Clock;
import java.time.Duration;

/**
 * The hot store's half of giving an order's units back, after the database of record closed the order and gave back
 * its own. The database keeps the restore due until this half is done, so a crash or an unreachable hot store in
 * between is repaired by the sweep ({@link PendingRestoreService}); every step can simply run again.
 */
final class HotStoreRestores {

    /** The hot store has not been told the order exists yet; the order pipeline tells it within moments. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(2);

    private final RestoreQueuePort restoreQueue;
    private final ReservationTransitionsPort reservations;
    private final Clock clock;

    HotStoreRestores(RestoreQueuePort restoreQueue, ReservationTransitionsPort reservations, Clock clock) {
        this.restoreQueue = restoreQueue;
        this.reservations = reservations;
        this.clock = clock;
    }

    /** Gives the units back in the hot store; true when nothing is left to give back there, false when postponed. */
    boolean complete(PendingRestore restore) {
        ReservationId reservationId = restore.reservationId();
        if (reservations.restore(restore).filter(ReservationStatus.RESERVED::equals).isPresent()) {
            // Still RESERVED: the order pipeline confirms it soon, and only an ORDERED reservation can be restored.
            restoreQueue.postponeHotStoreRestore(reservationId, clock.instant().plus(RETRY_AFTER));
            return false;
        }
        // Restored now, given back already (restored before, or released by the buyer while RESERVED), or unknown to
        // the hot store.
        restoreQueue.hotStoreRestored(reservationId);
        return true;
    }

    /** {@link #complete}, leaving the restore due if the hot store fails: the database's decision stands regardless. */
    void tryComplete(PendingRestore restore) {
        try {
            complete(restore);
        } catch (RuntimeException hotStoreFailed) {
            // Still due in the database: the sweep repeats it and reports the failure if it persists.
        }
    }
}
