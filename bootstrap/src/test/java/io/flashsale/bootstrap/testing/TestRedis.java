package io.flashsale.bootstrap.testing;

import io.flashsale.testsupport.TestServices;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;

/** A connection of the tests' own to the service's Redis, for looking at and damaging what the service keeps there. */
public final class TestRedis {

    private static StatefulRedisConnection<String, String> connection;

    private TestRedis() {
    }

    public static synchronized StatefulRedisConnection<String, String> connection() {
        if (connection == null) {
            connection = RedisClient.create(TestServices.redis().uri()).connect();
        }
        return connection;
    }
}
