package io.flashsale.adapter.outage;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.util.List;
import java.util.Map;

/**
 * The order pipeline's calls on the hot store while the hot store's breaker is open: reservations Redis accepted and
 * relayed before it died are still placed in the database (which decides; the conditional update cannot oversell),
 * instead of failing the batch until it is dead-lettered. While Redis is out, {@link #statuses} knows of no
 * reservation (none is taken for cancelled) and {@link #settle} tells Redis nothing: the rebuild before the breaker
 * closes takes the database's figures, these orders included. Restores still go to Redis and fail, and the restore
 * sweep retries them. With the breaker closed every call goes to Redis as it is.
 */
public final class OutageTolerantSettlement implements HotStoreSettlementPort {

    private final HotStoreSettlementPort redis;
    private final CircuitBreaker breaker;

    public OutageTolerantSettlement(HotStoreSettlementPort redis, CircuitBreaker breaker) {
        this.redis = redis;
        this.breaker = breaker;
    }

    private boolean redisOut() {
        return breaker.getState() != CircuitBreaker.State.CLOSED;
    }

    @Override
    public Map<ReservationId, HeldStatus> statuses(ActivityId activityId, List<ReservationId> reservationIds) {
        return redisOut() ? Map.of() : redis.statuses(activityId, reservationIds);
    }

    @Override
    public Map<ReservationId, ReservationStatus> settle(ActivityId activityId, List<ReservationId> confirmed,
                                                        List<ReservationId> failed) {
        return redisOut() ? Map.of() : redis.settle(activityId, confirmed, failed);
    }

    @Override
    public Map<ReservationId, ReservationStatus> restore(ActivityId activityId, List<PendingRestore> restores) {
        return redis.restore(activityId, restores);
    }
}
