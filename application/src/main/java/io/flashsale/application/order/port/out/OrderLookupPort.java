package io.flashsale.application.order.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Optional;

/** The database of record's order of one reservation, or of one request. */
public interface OrderLookupPort {

    /** The order of this reservation, with its lines; empty when the database holds none for it. */
    Optional<Order> find(ReservationId reservationId);

    /**
     * The request's one order (the key on activity, buyer and request id), whatever its reservation id: a request
     * decided on the database path on one instance and again on Redis through another has its order under the first
     * id only (ADR 61).
     */
    Optional<Order> findByRequest(ActivityId activityId, BuyerId buyerId, RequestId requestId);
}
