package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.ReadPace;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.KillArgs;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One Redis client, connection and adapter per test JVM, as the application shares them. The Redis is shared with
 * other test runs, so this JVM's warm-ups go to an outbox registry of its own: no other run's relay reads them.
 * <p>
 * The Redis is the machine's standalone one, or, when the system property {@value #TARGET} is {@code cluster}, the
 * 3-master Redis Cluster of test-support: the build runs the pipeline's tests a second time that way (the
 * {@code cluster} execution of failsafe in this module's pom), so every script and adapter call is proven to keep
 * to one slot. Tests meant for both reach Redis only through {@link #commands()}, {@link #adapter()},
 * {@link #connect()} and {@link #settings(Duration)}.
 */
final class SharedRedis {

    /** The system property that picks the Redis: {@code cluster}, or anything else for the standalone one. */
    static final String TARGET = "flashsale.test.redis";

    private static final boolean CLUSTER = "cluster".equals(System.getProperty(TARGET));
    private static final AbstractRedisClient CLIENT = CLUSTER
            ? RedisClusterClient.create(TestServices.redisCluster().uris().stream().map(RedisURI::create).toList())
            : RedisClient.create(TestServices.redis().uri());
    private static final Connection CONNECTION = connect();
    private static final String REGISTRY = newRegistry();
    private static final RedisStockReservationAdapter ADAPTER = adapter(CONNECTION.commands(), REGISTRY);

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // The cluster's nodes stop in a hook of their own, maybe first: a DEL sent to them would wait out the
            // command timeout and hold the JVM's exit. A registry left in a stopped cluster is no one's.
            CONNECTION.connection().setTimeout(Duration.ofSeconds(2));
            try {
                CONNECTION.commands().sync().del(REGISTRY);
            } catch (RuntimeException stopped) {
                System.err.println("[flashsale-tests] registry " + REGISTRY + " left behind: " + stopped);
            }
            CONNECTION.close();
            CLIENT.shutdown();
        }));
    }

    private SharedRedis() {
    }

    /** A connection of its own on the shared client, as another instance of the service has one. */
    record Connection(StatefulConnection<String, String> connection, ConnectionCommands commands)
            implements AutoCloseable {

        RedisClusterCommands<String, String> sync() {
            return commands.sync();
        }

        @Override
        public void close() {
            connection.close();
        }
    }

    /** True when this run's Redis is the cluster. */
    static boolean onCluster() {
        return CLUSTER;
    }

    /** The shared connection's commands, on either Redis. */
    static RedisClusterCommands<String, String> commands() {
        return CONNECTION.sync();
    }

    static ConnectionCommands connectionCommands() {
        return CONNECTION.commands();
    }

    /**
     * The shared connection to the standalone Redis, for tests that need what only it has (a database, a server to
     * restart). They run in the standalone execution only.
     */
    static StatefulRedisConnection<String, String> connection() {
        if (CONNECTION.connection() instanceof StatefulRedisConnection<String, String> standalone) {
            return standalone;
        }
        throw new IllegalStateException("this test needs the standalone Redis; it is not one of the cluster run's");
    }

    static RedisStockReservationAdapter adapter() {
        return ADAPTER;
    }

    /** A stock adapter of its own, as another instance of the service would have one. */
    static RedisStockReservationAdapter adapter(ConnectionCommands commands, String registry) {
        return new RedisStockReservationAdapter(commands, registry, activityId -> { }, activityId -> { }, false,
                RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
    }

    /** Reconciliation on the shared connection. */
    static RedisHotStoreReconciliation reconciliation() {
        return new RedisHotStoreReconciliation(commands(), activityId -> { }, ReadPace.NONE);
    }

    /** Rebuilds on the shared connection, registering rebuilt sales in {@link #registry()}. */
    static RedisHotStoreRebuild rebuild() {
        return new RedisHotStoreRebuild(commands(), REGISTRY, activityId -> { });
    }

    /** Audited adjustments on the shared connection. */
    static RedisStockAdjustments adjustments() {
        return new RedisStockAdjustments(commands(), activityId -> { });
    }

    /** A new connection, closed by its user. */
    static Connection connect() {
        if (CLIENT instanceof RedisClusterClient cluster) {
            StatefulRedisClusterConnection<String, String> connection = cluster.connect();
            return new Connection(connection, ConnectionCommands.of(connection));
        }
        StatefulRedisConnection<String, String> connection = ((RedisClient) CLIENT).connect();
        return new Connection(connection, ConnectionCommands.of(connection));
    }

    /** A subscription connection of its own under a client name, closed by its user. */
    static StatefulRedisPubSubConnection<String, String> connectPubSub(String name) {
        StatefulRedisPubSubConnection<String, String> subscription = CLIENT instanceof RedisClusterClient cluster
                ? cluster.connectPubSub() : ((RedisClient) CLIENT).connectPubSub();
        subscription.sync().clientSetname(name);
        return subscription;
    }

    /** Has every node close the connections of a client name, as a server does to a client it drops. */
    static void killClientsNamed(String name) {
        for (RedisClusterCommands<String, String> node : nodes()) {
            for (String client : node.clientList().split("\\r?\\n")) {
                if ((" " + client + " ").contains(" name=" + name + " ")) {
                    long id = Long.parseLong(client.substring(client.indexOf("id=") + 3, client.indexOf(' ')));
                    node.clientKill(KillArgs.Builder.id(id));
                }
            }
        }
    }

    /** {@code INFO commandstats} of the server that holds this key: on the cluster, the master of its slot. */
    static String commandStatsOf(String key) {
        if (CONNECTION.connection() instanceof StatefulRedisClusterConnection<String, String> cluster) {
            String node = cluster.getPartitions().getPartitionBySlot(SlotHash.getSlot(key)).getNodeId();
            return cluster.getConnection(node).sync().info("commandstats");
        }
        return commands().info("commandstats");
    }

    /** Every server's commands: the standalone one, or each node of the cluster. */
    private static List<RedisClusterCommands<String, String>> nodes() {
        if (CONNECTION.connection() instanceof StatefulRedisClusterConnection<String, String> cluster) {
            return cluster.getPartitions().stream()
                    .map(node -> (RedisClusterCommands<String, String>) cluster.getConnection(node.getNodeId()).sync())
                    .toList();
        }
        return List.of(commands());
    }

    /** What {@link RedisHotStore#connect} needs to reach this run's Redis. */
    static RedisHotStore.Settings settings(Duration timeout) {
        if (CLUSTER) {
            return new RedisHotStore.Settings("unused", 0, null, 0, timeout, TestServices.redisCluster().nodes());
        }
        return new RedisHotStore.Settings(TestServices.redis().host(), TestServices.redis().port(), null, 0, timeout);
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
        commands().del(registry);
    }

    /**
     * Deletes every key of a test's activity and its registration: the Redis is shared and never flushed. The keys
     * share the activity's hash tag, so the cluster takes them in one call.
     */
    static void forget(ActivityId activityId) {
        List<String> keys = new ArrayList<>(RedisRequestIndex.saleKeys(commands(), activityId));
        keys.add(RedisKeys.requestsDrop(activityId));
        commands().del(keys.toArray(String[]::new));
        commands().srem(REGISTRY, activityId.value());
    }
}
