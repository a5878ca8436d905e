package io.flashsale.testsupport;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The test Redis Cluster forms without {@code redis-cli}, on the packaged redis-server (this module's failsafe forces
 * it): three masters sharing all 16384 slots, and a key on each master's slots is written and read back.
 */
class LocalRedisClusterIT {

    @Test
    void threeMastersServeEverySlot() {
        RedisClusterEndpoint cluster = LocalRedisCluster.get();
        assertThat(cluster.uris()).hasSize(3);
        RedisClusterClient client = RedisClusterClient.create(cluster.uris().stream().map(RedisURI::create).toList());
        try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
            RedisAdvancedClusterCommands<String, String> commands = connection.sync();
            assertThat(commands.clusterInfo()).contains("cluster_state:ok", "cluster_slots_assigned:16384",
                    "cluster_known_nodes:3", "cluster_size:3");

            Set<String> masters = new HashSet<>();
            IntStream.range(0, 30).mapToObj(i -> "key-" + i).forEach(key -> {
                commands.set(key, key);
                assertThat(commands.get(key)).isEqualTo(key);
                masters.add(connection.getPartitions().getPartitionBySlot(
                        SlotHash.getSlot(key)).getNodeId());
            });
            assertThat(masters).as("the keys landed on every master").hasSize(3);
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }
}
