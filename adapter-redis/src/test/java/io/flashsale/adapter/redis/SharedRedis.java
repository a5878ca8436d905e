package io.flashsale.adapter.redis;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

import java.util.UUID;

/**
 * One Redis client, connection and adapter per test JVM, as the application shares them. The Redis is shared with
 * other test runs, so this JVM's warm-ups go to an outbox registry of its own: no other run's relay reads them.
 */
final class SharedRedis {

    private static final RedisClient CLIENT = RedisClient.create(TestServices.redis().uri());
    private static final StatefulRedisConnection<String, String> CONNECTION = CLIENT.connect();
    private static final String REGISTRY = newRegistry();
    private static final RedisStockReservationAdapter ADAPTER = new RedisStockReservationAdapter(CONNECTION, REGISTRY);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            CONNECTION.sync().del(REGISTRY);
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

    /** The outbox registry of {@link #adapter()}. */
    static String registry() {
        return REGISTRY;
    }

    /** A registry key no other test uses; delete it with {@link #forgetRegistry(String)}. */
    static String newRegistry() {
        return "fs:outbox:activities:it-" + UUID.randomUUID();
    }

    static void forgetRegistry(String registry) {
        CONNECTION.sync().del(registry);
    }

    /** Deletes every key of a test's activity and its registration: the Redis is shared and never flushed. */
    static void forget(ActivityId activityId) {
        CONNECTION.sync().del(RedisKeys.archiveKeys(activityId).toArray(String[]::new));
        CONNECTION.sync().srem(REGISTRY, activityId.value());
    }
}
