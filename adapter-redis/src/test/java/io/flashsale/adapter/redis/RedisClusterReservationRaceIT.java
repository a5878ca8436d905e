package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;

import java.util.List;

/** The race of {@link RedisReservationRaceIT} on a 3-master Redis Cluster: the same exact figures. */
class RedisClusterReservationRaceIT extends RedisReservationRaceIT {

    @Override
    RedisStockReservationAdapter adapter() {
        return SharedRedisCluster.adapter();
    }

    @Override
    List<String> outboxReservations(ActivityId activityId) {
        return OutboxReservations.ids(SharedRedisCluster.connection().sync(), activityId);
    }

    @Override
    void forget(ActivityId activityId) {
        SharedRedisCluster.forget(activityId);
    }
}
