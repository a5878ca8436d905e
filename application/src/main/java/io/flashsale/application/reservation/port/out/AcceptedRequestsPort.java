package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

/**
 * One read of what the hot store knows about the requests it accepted at a sale (ADR 0069): enough to tell a request
 * key surely never accepted, so that a keyed attempt on a sold-out SKU needs no round trip.
 */
public interface AcceptedRequestsPort {

    /** What the store holds now, empty when it keeps nothing usable for the sale (then every keyed attempt asks it). */
    Optional<AcceptedRequestsSnapshotPort> read(ActivityId activityId);

    /** Knows nothing: every keyed attempt asks the store. */
    static AcceptedRequestsPort none() {
        return activityId -> Optional.empty();
    }
}
