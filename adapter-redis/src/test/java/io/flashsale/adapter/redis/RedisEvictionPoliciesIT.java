package io.flashsale.adapter.redis;

import io.flashsale.application.sale.port.out.EvictionPolicyPort;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.flashsale.testsupport.RedisEndpoint;
import io.flashsale.testsupport.TestServices;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each node's {@code maxmemory-policy} as the service reads it, on the tests' real Redis and on a 3-master cluster:
 * the test changes a policy with {@code CONFIG SET} and puts the one it found back after.
 */
@Timeout(60)
class RedisEvictionPoliciesIT {

    private static final String POLICY = RedisEvictionPolicies.PARAMETER;

    @Test
    void givenASingleServer_thenItsPolicyIsReadAsItIsNow() {
        RedisEndpoint redis = TestServices.redis();
        RedisCommands<String, String> config = SharedRedis.connection().sync();
        String found = config.configGet(POLICY).get(POLICY);
        try (RedisHotStore store = RedisHotStore.connect(new RedisHotStore.Settings(redis.host(), redis.port(), null,
                0, Duration.ofSeconds(5)), SharedRedis.newRegistry())) {
            EvictionPolicyPort policies = store.evictionPolicies();
            String node = redis.host() + ":" + redis.port();
            assertThat(policies.read()).containsExactly(new NodeEvictionPolicy(node, "noeviction"));

            config.configSet(POLICY, "allkeys-lru");

            List<NodeEvictionPolicy> read = policies.read();
            assertThat(read).containsExactly(new NodeEvictionPolicy(node, "allkeys-lru"));
            assertThat(read.getFirst().mayEvictSaleKeys()).isTrue();
        } finally {
            config.configSet(POLICY, found);
        }
    }

    @Test
    void givenAClusterWithOneMasterOnVolatileLru_thenEveryMasterIsReadAndThatOneNamed() {
        var cluster = SharedRedisCluster.connection();
        RedisClusterNode changed = cluster.getPartitions().stream()
                .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM)).findFirst().orElseThrow();
        RedisURI uri = changed.getUri();
        var node = cluster.getConnection(changed.getNodeId()).sync();
        String found = node.configGet(POLICY).get(POLICY);
        try (RedisHotStore store = RedisHotStore.connect(new RedisHotStore.Settings("unused", 0, null, 0,
                Duration.ofSeconds(5), TestServices.redisCluster().nodes()), SharedRedis.newRegistry())) {
            node.configSet(POLICY, "volatile-lru");

            List<NodeEvictionPolicy> read = store.evictionPolicies().read();

            assertThat(read).hasSize(3);
            assertThat(read.stream().filter(NodeEvictionPolicy::mayEvictSaleKeys).toList())
                    .containsExactly(new NodeEvictionPolicy(uri.getHost() + ":" + uri.getPort(), "volatile-lru"));
        } finally {
            node.configSet(POLICY, found);
        }
    }
}
