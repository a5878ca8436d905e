package io.flashsale.adapter.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;

import java.time.Duration;

/**
 * One shared connection's commands, blocking and asynchronous, and its command timeout: the reserve path sends its
 * calls without waiting (ADR 0068) and bounds each caller's wait itself.
 */
record ConnectionCommands(RedisClusterCommands<String, String> sync, RedisClusterAsyncCommands<String, String> async,
                          Duration timeout) {

    static ConnectionCommands of(StatefulRedisConnection<String, String> connection) {
        return new ConnectionCommands(connection.sync(), connection.async(), connection.getTimeout());
    }

    static ConnectionCommands of(StatefulRedisClusterConnection<String, String> connection) {
        return new ConnectionCommands(connection.sync(), connection.async(), connection.getTimeout());
    }
}
