package io.flashsale.adapter.redis;

import io.flashsale.application.port.out.HotStoreArchivePort;
import io.flashsale.application.port.out.HotStoreReconciliationPort;
import io.flashsale.application.port.out.HotStoreSettlementPort;
import io.flashsale.application.port.out.RateLimitBuckets;
import io.flashsale.application.port.out.ReservationOutboxPort;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.application.port.out.StockReturnsPort;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The service's one Lettuce client and one shared, thread-safe connection (Lettuce pipelines concurrent callers on
 * it), and the adapters built on them. Nothing on the connection may block (no XREADGROUP BLOCK, no BLPOP): every
 * caller would wait behind it. Wiring code sees only this class and the ports, never Lettuce.
 * <p>
 * A standalone Redis or a Redis Cluster ({@link Settings#clusterNodes()} not empty): every script touches keys of one
 * activity only, which share its hash tag and so one slot; the cluster client routes each call by its keys.
 */
public final class RedisHotStore implements AutoCloseable {

    /**
     * @param password     null or empty: no AUTH
     * @param clusterNodes {@code host:port} seeds of a Redis Cluster; empty: the standalone {@code host:port}
     */
    public record Settings(String host, int port, String password, int database, Duration timeout,
                           List<String> clusterNodes) {

        public Settings {
            clusterNodes = clusterNodes == null ? List.of() : List.copyOf(clusterNodes);
        }

        public Settings(String host, int port, String password, int database, Duration timeout) {
            this(host, port, password, database, timeout, List.of());
        }

        boolean cluster() {
            return !clusterNodes.isEmpty();
        }

        RedisURI toUri() {
            return uri(host, port).withDatabase(database).build();
        }

        List<RedisURI> clusterUris() {
            return clusterNodes.stream().map(node -> {
                int colon = node.lastIndexOf(':');
                if (colon <= 0 || colon == node.length() - 1) {
                    throw new IllegalArgumentException("a cluster node is host:port, was '" + node + "'");
                }
                return uri(node.substring(0, colon), Integer.parseInt(node.substring(colon + 1))).build();
            }).toList();
        }

        private RedisURI.Builder uri(String nodeHost, int nodePort) {
            RedisURI.Builder uri = RedisURI.builder().withHost(nodeHost).withPort(nodePort).withTimeout(timeout);
            if (password != null && !password.isEmpty()) {
                uri.withPassword(password.toCharArray());
            }
            return uri;
        }
    }

    private final AbstractRedisClient client;
    private final StatefulConnection<String, String> connection;
    private final RedisClusterCommands<String, String> redis;
    private final String outboxRegistry;
    private final RedisStockReturns returns;
    private final boolean windowByRedisTime;
    /** Connections opened for other codecs (the rate-limit buckets'), closed with this one. */
    private final List<StatefulConnection<?, ?>> extraConnections = new ArrayList<>();

    private RedisHotStore(AbstractRedisClient client, StatefulConnection<String, String> connection,
                          RedisClusterCommands<String, String> redis,
                          StatefulRedisPubSubConnection<String, String> subscription, String outboxRegistry,
                          boolean windowByRedisTime) {
        this.windowByRedisTime = windowByRedisTime;
        this.client = client;
        this.connection = connection;
        this.redis = redis;
        this.outboxRegistry = outboxRegistry;
        String channel = RedisKeys.stockReturnsChannel(outboxRegistry);
        this.returns = new RedisStockReturns(subscription, activityId -> redis.publish(channel, activityId), channel);
    }

    /**
     * @param outboxRegistry the set of activities the outbox relays read; every adapter of one service uses the same
     *                       one, so a warm-up, a rebuild and an archive all change the set the relays read
     */
    public static RedisHotStore connect(Settings settings, String outboxRegistry) {
        return connect(settings, outboxRegistry, true);
    }

    /**
     * @param windowByRedisTime true: the sale window is judged by Redis {@code TIME}, one clock for every instance;
     *                          false: by the instant of each request (the service's clock), for tests that move it
     */
    public static RedisHotStore connect(Settings settings, String outboxRegistry, boolean windowByRedisTime) {
        if (settings.cluster()) {
            RedisClusterClient client = RedisClusterClient.create(settings.clusterUris());
            try {
                StatefulRedisClusterConnection<String, String> connection = client.connect();
                return new RedisHotStore(client, connection, connection.sync(), client.connectPubSub(), outboxRegistry,
                        windowByRedisTime);
            } catch (RuntimeException unreachable) {
                client.shutdown();
                throw unreachable;
            }
        }
        RedisClient client = RedisClient.create(settings.toUri());
        try {
            StatefulRedisConnection<String, String> connection = client.connect();
            return new RedisHotStore(client, connection, connection.sync(), client.connectPubSub(), outboxRegistry,
                        windowByRedisTime);
        } catch (RuntimeException unreachable) {
            client.shutdown();
            throw unreachable;
        }
    }

    public StockReservationPort stockReservations() {
        return new RedisStockReservationAdapter(redis, outboxRegistry, returns::announce, windowByRedisTime);
    }

    public ReservationOutboxPort outbox() {
        return new RedisReservationOutbox(redis, outboxRegistry);
    }

    public HotStoreArchivePort archive() {
        return new RedisActivityArchive(redis, outboxRegistry);
    }

    public HotStoreSettlementPort settlement() {
        return new RedisHotStoreSettlement(redis, returns::announce);
    }

    public HotStoreReconciliationPort reconciliation() {
        return new RedisHotStoreReconciliation(redis, outboxRegistry, returns::announce);
    }

    /**
     * Token buckets shared by every instance of the service, on a connection of their own (Bucket4j keeps bucket
     * state as bytes). Each call opens one more connection: call it once.
     *
     * @param prefix  the key prefix of every bucket, e.g. {@code fs:rl:}
     * @param timeout how long one take may wait for Redis before it fails
     */
    public RateLimitBuckets rateLimitBuckets(String prefix, Duration timeout) {
        RedisCodec<String, byte[]> codec = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
        synchronized (extraConnections) {
            if (client instanceof RedisClusterClient cluster) {
                StatefulRedisClusterConnection<String, byte[]> bytes = cluster.connect(codec);
                extraConnections.add(bytes);
                return RedisRateLimitBuckets.onCluster(bytes, prefix, timeout);
            }
            StatefulRedisConnection<String, byte[]> bytes = ((RedisClient) client).connect(codec);
            extraConnections.add(bytes);
            return RedisRateLimitBuckets.on(bytes, prefix, timeout);
        }
    }

    /** Every return of units, announced by this instance's adapters or another instance's. */
    public StockReturnsPort stockReturns() {
        return returns;
    }

    /** One PING on the shared connection (on a cluster, to a node Lettuce picks): what a health check asks. Throws when Redis does not answer in time. */
    public String ping() {
        return redis.ping();
    }

    @Override
    public void close() {
        returns.close();
        synchronized (extraConnections) {
            extraConnections.forEach(StatefulConnection::close);
        }
        connection.close();
        client.shutdown();
    }
}
