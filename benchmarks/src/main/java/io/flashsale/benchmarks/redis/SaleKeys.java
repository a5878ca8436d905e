package io.flashsale.benchmarks.redis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.util.Collection;

/**
 * Removes what the service's scripts wrote for the benchmark's sales: every key of a sale carries its hash tag
 * ({@code fs:{<activityId>}:...}, see docs/architecture.md), so a SCAN by that prefix finds them all without
 * knowing their names; and the run's own outbox registry.
 */
public final class SaleKeys {

    private SaleKeys() {
    }

    public static void delete(RedisServer server, Collection<String> activities, String outboxRegistry) {
        RedisClient client = RedisClient.create(server.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            for (String activity : activities) {
                ScanCursor cursor = ScanCursor.INITIAL;
                do {
                    KeyScanCursor<String> page = redis.scan(cursor,
                            ScanArgs.Builder.matches("fs:{" + activity + "}:*").limit(500));
                    if (!page.getKeys().isEmpty()) {
                        redis.del(page.getKeys().toArray(String[]::new));
                    }
                    cursor = page;
                } while (!cursor.isFinished());
            }
            redis.del(outboxRegistry);
        } finally {
            client.shutdown();
        }
    }
}
