package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

import java.util.List;

/** {@link SharedRedis} on a 3-master Redis Cluster (test-support starts one from this machine's redis-server). */
final class SharedRedisCluster {

    private static final RedisClusterClient CLIENT = RedisClusterClient.create(
            TestServices.redisCluster().uris().stream().map(RedisURI::create).toList());
    private static final StatefulRedisClusterConnection<String, String> CONNECTION = CLIENT.connect();
    private static final String REGISTRY = SharedRedis.newRegistry();
    private static final RedisStockReservationAdapter ADAPTER =
            new RedisStockReservationAdapter(ConnectionCommands.of(CONNECTION), REGISTRY, activityId -> { },
                    activityId -> { }, false, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            CONNECTION.close();
            CLIENT.shutdown();
        }));
    }

    private SharedRedisCluster() {
    }

    static StatefulRedisClusterConnection<String, String> connection() {
        return CONNECTION;
    }

    static RedisStockReservationAdapter adapter() {
        return ADAPTER;
    }

    /** One DEL of every key of the activity: they share its hash tag, so the cluster takes them in one call. */
    static void forget(ActivityId activityId) {
        List<String> keys = RedisRequestIndex.saleKeys(CONNECTION.sync(), activityId);
        CONNECTION.sync().del(keys.toArray(String[]::new));
        CONNECTION.sync().srem(REGISTRY, activityId.value());
    }
}
