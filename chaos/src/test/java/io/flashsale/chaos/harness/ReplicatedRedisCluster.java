package io.flashsale.chaos.harness;

import io.flashsale.testsupport.FreePorts;
import io.flashsale.testsupport.RedisServerProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.models.partitions.ClusterPartitionParser;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of 3 masters with one replica each, every node a {@code redis-server} of the harness's own with AOF
 * everysec (as the campaign's single Redis: the node a failover killed comes back on its own files), formed through
 * Lettuce (ADDSLOTS, MEET, REPLICATE) so that no {@code redis-cli} is needed. The service reaches the nodes directly:
 * a cluster tells its clients its nodes' own addresses (ADR 97), so no proxy could sit between.
 */
public final class ReplicatedRedisCluster implements RedisUnderTest {

    private static final int MASTERS = 3;
    private static final int SLOTS = 16_384;
    /**
     * Short, so that a failover completes within seconds; not shorter, so that a node the loaded 2-core machine did not
     * schedule for a while (CI's load average on it reaches 40) is not failed over by itself, outside every fault.
     */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(5_000);
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    private final List<RedisServerProcess> nodes = new ArrayList<>();
    private final RedisClient client = RedisClient.create();
    private boolean closed;

    public ReplicatedRedisCluster(Path workDirectory) {
        // Files of their own each time: a node started on an earlier run's nodes.conf would rejoin that run's cluster
        // and refuse the slots it is given.
        Path directory = freshDirectoryIn(workDirectory);
        for (int port : nodePorts()) {
            nodes.add(RedisServerProcess.onPortIn(port, directory.resolve("redis-" + port),
                    RedisServerProcess.Persistence.AOF_EVERYSEC, "--cluster-enabled", "yes",
                    "--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis())));
        }
        try {
            nodes.forEach(RedisServerProcess::start);
            form();
        } catch (RuntimeException notFormed) {
            close();
            throw notFormed;
        }
        System.out.println("[chaos] Redis Cluster: " + topology());
    }

    private static Path freshDirectoryIn(Path parent) {
        try {
            Files.createDirectories(parent);
            return Files.createTempDirectory(parent, "cluster-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void form() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < MASTERS; i++) {
            int from = SLOTS * i / MASTERS;
            int to = SLOTS * (i + 1) / MASTERS;
            ids.add(on(nodes.get(i), node -> {
                node.clusterAddSlots(IntStream.range(from, to).toArray());
                return node.clusterMyId();
            }));
        }
        if (ids.contains(null)) {
            throw new IllegalStateException("a master refused its slots: see the logs in " + nodes.getFirst().log());
        }
        for (RedisServerProcess other : nodes.subList(1, nodes.size())) {
            on(nodes.getFirst(), node -> node.clusterMeet("127.0.0.1", other.port()));
        }
        await("every node to know the other five", () -> nodes.stream().allMatch(node -> on(node,
                commands -> commands.clusterInfo().contains("cluster_known_nodes:" + nodes.size()))));
        for (int i = MASTERS; i < nodes.size(); i++) {
            String master = ids.get(i - MASTERS);
            on(nodes.get(i), node -> node.clusterReplicate(master));
        }
        await("3 masters, each with a replica in sync", this::healthy);
    }

    @Override
    public Map<String, String> serviceSettings() {
        return Map.of("spring.data.redis.cluster.nodes",
                nodes.stream().map(node -> "127.0.0.1:" + node.port()).collect(Collectors.joining(",")));
    }

    /**
     * SIGKILLs the master that serves this key's slot now; the returned failover waits for its replica's takeover
     * and starts it again.
     */
    public Failover killMasterOf(String key) {
        int slot = SlotHash.getSlot(key);
        RedisServerProcess master = await("a master serving slot " + slot, () -> masterOf(slot, null));
        master.kill();
        return new Failover(slot, master, System.nanoTime());
    }

    /** One master's failover, from its SIGKILL on. */
    public final class Failover {
        private final int slot;
        private final RedisServerProcess killed;
        private final long killedAt;
        private RedisServerProcess promoted;
        private long takeoverMillis = -1;
        private long rejoinedMillis = -1;

        private Failover(int slot, RedisServerProcess killed, long killedAt) {
            this.slot = slot;
            this.killed = killed;
            this.killedAt = killedAt;
        }

        /** Until another node, a replica of the killed master, serves the slot and its cluster is ok. */
        public void awaitTakeover() {
            promoted = await("a replica to take slot " + slot + " over from " + killed.port(),
                    () -> masterOf(slot, killed));
            takeoverMillis = millisSinceKill();
        }

        /** The killed node started again on its own files; until it is a replica in sync (the next failover's). */
        public void rejoin() {
            killed.start();
            await("node " + killed.port() + " back as a replica in sync", () -> inSyncReplica(killed));
            rejoinedMillis = millisSinceKill();
        }

        private long millisSinceKill() {
            return (System.nanoTime() - killedAt) / 1_000_000;
        }

        @Override
        public String toString() {
            String killedNode = "failover of slot %d: master 127.0.0.1:%d SIGKILLed".formatted(slot, killed.port());
            if (promoted == null) {
                return killedNode + ", no replica served the slot yet";
            }
            return killedNode + ", 127.0.0.1:%d served the slot %d ms later, the killed node %s".formatted(
                    promoted.port(), takeoverMillis, rejoinedMillis < 0 ? "not back yet"
                            : "a replica in sync again " + rejoinedMillis + " ms after the kill");
        }
    }

    /** Every node running and thawed, and the cluster whole: 3 masters serving every slot, each with a replica in sync. */
    @Override
    public void heal() {
        for (RedisServerProcess node : nodes) {
            node.thawQuietly();
            if (!node.isAlive()) {
                node.start();
            }
        }
        await("3 masters, each with a replica in sync", this::healthy);
    }

    private boolean healthy() {
        for (RedisServerProcess node : nodes) {
            String info = on(node, RedisCommands::clusterInfo);
            if (info == null || !info.contains("cluster_state:ok")) {
                return false;
            }
        }
        Partitions view = view(nodes.getFirst());
        if (view == null) {
            return false;
        }
        long serving = view.stream().filter(ReplicatedRedisCluster::liveMaster)
                .filter(node -> !node.getSlots().isEmpty()).count();
        return serving == MASTERS && nodes.stream().filter(node -> !isMaster(view, node))
                .filter(this::inSyncReplica).count() == nodes.size() - MASTERS;
    }

    /** The master serving the slot, as that node itself and its cluster see it, other than {@code not}. */
    private RedisServerProcess masterOf(int slot, RedisServerProcess not) {
        for (RedisServerProcess node : nodes) {
            if (node == not || !node.isAlive()) {
                continue;
            }
            Partitions view = view(node);
            Optional<RedisClusterNode> myself = view == null ? Optional.empty()
                    : view.stream().filter(entry -> entry.is(NodeFlag.MYSELF)).findFirst();
            if (myself.isPresent() && liveMaster(myself.get()) && myself.get().hasSlot(slot)
                    && Boolean.TRUE.equals(on(node, commands -> commands.clusterInfo().contains("cluster_state:ok")))) {
                return node;
            }
        }
        return null;
    }

    private boolean inSyncReplica(RedisServerProcess node) {
        String replication = on(node, commands -> commands.info("replication"));
        return replication != null && replication.contains("role:slave")
                && replication.contains("master_link_status:up") && replication.contains("master_sync_in_progress:0");
    }

    private static boolean isMaster(Partitions view, RedisServerProcess node) {
        return view.stream().anyMatch(entry -> entry.getUri().getPort() == node.port() && liveMaster(entry));
    }

    private static boolean liveMaster(RedisClusterNode node) {
        return node.is(NodeFlag.UPSTREAM) && !node.is(NodeFlag.FAIL) && !node.is(NodeFlag.EVENTUAL_FAIL);
    }

    private Partitions view(RedisServerProcess node) {
        String nodes = on(node, RedisCommands::clusterNodes);
        return nodes == null ? null : ClusterPartitionParser.parse(nodes);
    }

    /** Each node's port and role, for the log. */
    String topology() {
        Partitions view = view(nodes.getFirst());
        return view == null ? "(unreadable)" : view.stream().map(node -> "127.0.0.1:" + node.getUri().getPort() + " "
                + (node.is(NodeFlag.UPSTREAM) ? "master" : "replica")).sorted().collect(Collectors.joining(", "));
    }

    /** A command on its own short-lived connection: null when the node does not answer (killed, frozen, starting). */
    private <T> T on(RedisServerProcess node, Function<RedisCommands<String, String>, T> command) {
        RedisURI uri = RedisURI.builder().withHost("127.0.0.1").withPort(node.port()).withTimeout(COMMAND_TIMEOUT)
                .build();
        try (StatefulRedisConnection<String, String> connection = client.connect(uri)) {
            return command.apply(connection.sync());
        } catch (RuntimeException notNow) {
            return null;
        }
    }

    private static <T> T await(String what, Supplier<T> condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            T value = condition.get();
            if (value != null && !Boolean.FALSE.equals(value)) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + PATIENCE + " for " + what);
            }
            ChildProcess.sleep(Duration.ofMillis(100));
        }
    }

    /** Six free ports whose cluster bus ports (+ 10000) are free too. */
    private static List<Integer> nodePorts() {
        return IntStream.generate(FreePorts::next).filter(ReplicatedRedisCluster::busPortFree).limit(MASTERS * 2)
                .boxed().toList();
    }

    private static boolean busPortFree(int port) {
        int bus = port + 10_000;
        try (ServerSocket probe = new ServerSocket()) {
            probe.bind(new InetSocketAddress("127.0.0.1", bus));
            return bus < 65_536;
        } catch (IOException | IllegalArgumentException taken) {
            return false;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        nodes.forEach(RedisServerProcess::close);
        client.shutdown();
    }
}
