package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;

import java.util.List;

/**
 * The hot store's side of archiving an ended sale: is anything of it still in flight, and dropping it once its outbox
 * is drained (checked in the delete's own atomic step).
 */
public interface HotStoreArchivePort {

    /** Reservations of the activity the hot store holds as RESERVED (accepted, not yet ordered); 0 when not loaded. */
    long reservedCount(ActivityId activityId);

    /**
     * Reservations of the activity the hot store holds as CANCELLED: released by the buyer while RESERVED (their
     * events may still be on their way to the order pipeline, which must find them cancelled) or closed as orders.
     */
    List<ReservationId> cancelledReservations(ActivityId activityId);

    /**
     * Drops every key of the activity and its outbox registration. The outbox is checked again in the same atomic
     * step as the deletion: when it is not drained nothing is deleted and the answer is false, so an accepted
     * reservation is never lost. Idempotent: an activity that is not there is deleted already.
     */
    boolean delete(ActivityId activityId);
}
