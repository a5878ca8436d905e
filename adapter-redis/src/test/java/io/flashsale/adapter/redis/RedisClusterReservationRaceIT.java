package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;

/** The race of {@link RedisReservationRaceIT} on a 3-master Redis Cluster: the same exact figures. */
class RedisClusterReservationRaceIT extends RedisReservationRaceIT {

    @Override
    RedisStockReservationAdapter adapter() {
        return SharedRedisCluster.adapter();
    }

    @Override
    long outboxLength(ActivityId activityId) {
        return SharedRedisCluster.connection().sync().xlen(RedisKeys.outbox(activityId));
    }

    @Override
    void forget(ActivityId activityId) {
        SharedRedisCluster.forget(activityId);
    }
}
