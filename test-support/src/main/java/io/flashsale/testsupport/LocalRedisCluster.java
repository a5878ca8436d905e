package io.flashsale.testsupport;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.IntStream;

/**
 * A 3-master Redis Cluster of {@link RedisServerProcess}es on free ports below 55536 (a node also listens on
 * port + 10000), formed through Lettuce as {@code redis-cli --cluster create} would, so no {@code redis-cli} is
 * needed: each node takes a third of the slots (CLUSTER ADDSLOTS, which Redis 6.2 has; ADDSLOTSRANGE is 7.0's), the
 * first meets the others, and every node must report {@code cluster_state:ok}. Started once per test JVM on first
 * use and stopped when the JVM exits; nothing is persisted.
 */
final class LocalRedisCluster {

    private static final int MASTERS = 3;
    private static final int SLOTS = 16_384;
    private static final Duration FORM_PATIENCE = Duration.ofSeconds(30);

    private static RedisClusterEndpoint endpoint;

    private LocalRedisCluster() {
    }

    static synchronized RedisClusterEndpoint get() {
        if (endpoint == null) {
            endpoint = start();
        }
        return endpoint;
    }

    private static RedisClusterEndpoint start() {
        List<RedisServerProcess> nodes = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> nodes.forEach(RedisServerProcess::close)));
        for (int port : freePorts()) {
            nodes.add(RedisServerProcess.onPort(port, RedisServerProcess.Persistence.NONE, "--cluster-enabled", "yes")
                    .start());
        }
        form(nodes);
        List<String> addresses = nodes.stream().map(node -> "127.0.0.1:" + node.port()).toList();
        System.out.println("[flashsale-tests] Redis Cluster on " + addresses);
        return new RedisClusterEndpoint(addresses);
    }

    private static void form(List<RedisServerProcess> nodes) {
        RedisClient client = RedisClient.create();
        List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
        try {
            for (RedisServerProcess node : nodes) {
                connections.add(client.connect(RedisURI.create("127.0.0.1", node.port())));
            }
            for (int i = 0; i < MASTERS; i++) {
                // Rounded, as redis-cli --cluster create cuts them (0-5460, 5461-10922, 10923-16383) and as SliceTags
                // expects: slot 10922 belongs to the second master.
                int from = (int) Math.round((double) SLOTS * i / MASTERS);
                int to = (int) Math.round((double) SLOTS * (i + 1) / MASTERS);
                connections.get(i).sync().clusterAddSlots(IntStream.range(from, to).toArray());
            }
            RedisCommands<String, String> first = connections.getFirst().sync();
            for (RedisServerProcess other : nodes.subList(1, nodes.size())) {
                first.clusterMeet("127.0.0.1", other.port());
            }
            for (StatefulRedisConnection<String, String> connection : connections) {
                awaitClusterOk(connection.sync());
            }
        } finally {
            connections.forEach(StatefulRedisConnection::close);
            client.shutdown();
        }
    }

    /** ok once the node knows every master and sees all 16384 slots served. */
    private static void awaitClusterOk(RedisCommands<String, String> node) {
        long deadline = System.nanoTime() + FORM_PATIENCE.toNanos();
        while (true) {
            String info = node.clusterInfo();
            if (info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + MASTERS)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the Redis Cluster did not form within " + FORM_PATIENCE + ":\n"
                        + info);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Ports below 55536 (so that port + 10000, the cluster bus, is a port too), both free now. */
    private static List<Integer> freePorts() {
        List<Integer> ports = new ArrayList<>();
        while (ports.size() < MASTERS) {
            int candidate = ThreadLocalRandom.current().nextInt(20_000, 45_000);
            if (!ports.contains(candidate) && free(candidate) && free(candidate + 10_000)) {
                ports.add(candidate);
            }
        }
        return ports;
    }

    private static boolean free(int port) {
        try (ServerSocket ignored = new ServerSocket(port)) {
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }
}
