package io.flashsale.application.order.port.out;

import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The order pipeline's batch calls on the hot store: one call per activity and batch, whatever the batch's size. */
public interface HotStoreSettlementPort {

    /** A reservation as the hot store holds it; {@code cancelledAt} is set when the buyer cancelled it. */
    record HeldStatus(ReservationStatus status, Instant cancelledAt) {
    }

    /** The status of each reservation, in one read; reservations the hot store does not hold are absent. */
    Map<ReservationId, HeldStatus> statuses(ActivityId activityId, List<ReservationId> reservationIds);

    /**
     * In one atomic step: every {@code confirmed} reservation still RESERVED becomes ORDERED (its reserved units
     * sold, its record gone: ADR 71), every {@code failed} one still RESERVED becomes FAILED and its units go back at
     * once (available and the buyer's allowance). Any other reservation is left as it is, so settling a batch again
     * changes nothing.
     *
     * @return the status each reservation had before the call (absent when the hot store does not hold it);
     * RESERVED means this call moved it
     */
    Map<ReservationId, ReservationStatus> settle(ActivityId activityId, List<ReservationId> confirmed,
                                                 List<ReservationId> failed);

    /**
     * In one atomic step: every order still ORDERED in the hot store takes its final status (CANCELLED or EXPIRED) and
     * its sold units become available again, back in the buyer's allowance too (as
     * {@link ReservationTransitionsPort#restore(PendingRestore)} does for one). Any other reservation is left as it
     * is, so a restore never gives units back twice.
     *
     * @return the status each reservation had before the call (absent when not held); ORDERED means restored now
     */
    Map<ReservationId, ReservationStatus> restore(ActivityId activityId, List<PendingRestore> restores);
}
