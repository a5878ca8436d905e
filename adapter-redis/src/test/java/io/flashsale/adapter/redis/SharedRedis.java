package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** One Redis client, connection and adapter per test JVM, as the application shares them. */
final class SharedRedis {

    private static final RedisClient CLIENT = RedisClient.create(TestServices.redis().uri());
    private static final StatefulRedisConnection<String, String> CONNECTION = CLIENT.connect();
    private static final RedisStockReservationAdapter ADAPTER = new RedisStockReservationAdapter(CONNECTION);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            CONNECTION.close();
            CLIENT.shutdown();
        }));
    }

    private SharedRedis() {
    }

    static StatefulRedisConnection<String, String> connection() {
        return CONNECTION;
    }

    static RedisStockReservationAdapter adapter() {
        return ADAPTER;
    }

    /** Deletes every key of a test's activity: the Redis is shared and never flushed. */
    static void forget(ActivityId activityId) {
        CONNECTION.sync().del(RedisKeys.meta(activityId), RedisKeys.stock(activityId), RedisKeys.holdings(activityId),
                RedisKeys.reservations(activityId), RedisKeys.requests(activityId), RedisKeys.outbox(activityId));
    }
}
