package io.flashsale.adapter.redis;

import io.flashsale.application.sale.port.out.EvictionPolicyPort;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code CONFIG GET maxmemory-policy} on the service's connection: on a cluster, on every master (each keeps its own
 * configuration, and each holds sales); on a single server, on it. A node that does not name a policy (a managed
 * Redis that renamed or refused CONFIG answers with an error instead) fails the read.
 */
final class RedisEvictionPolicies implements EvictionPolicyPort {

    static final String PARAMETER = "maxmemory-policy";

    private final Supplier<StatefulConnection<String, String>> connection;
    private final String standaloneNode;

    RedisEvictionPolicies(Supplier<StatefulConnection<String, String>> connection, String standaloneNode) {
        this.connection = connection;
        this.standaloneNode = standaloneNode;
    }

    @Override
    public List<NodeEvictionPolicy> read() {
        StatefulConnection<String, String> open = connection.get();
        if (open == null) {
            throw new IllegalStateException("Redis is not connected");
        }
        if (open instanceof StatefulRedisClusterConnection<String, String> cluster) {
            List<NodeEvictionPolicy> policies = new ArrayList<>();
            cluster.sync().upstream().commands().configGet(PARAMETER).asMap()
                    .forEach((node, config) -> policies.add(policy(address(node), config)));
            return policies;
        }
        return List.of(policy(standaloneNode, ((StatefulRedisConnection<String, String>) open).sync()
                .configGet(PARAMETER)));
    }

    private static NodeEvictionPolicy policy(String node, Map<String, String> config) {
        String policy = config.get(PARAMETER);
        if (policy == null) {
            throw new IllegalStateException("Redis at " + node + " did not name its " + PARAMETER + ": " + config);
        }
        return new NodeEvictionPolicy(node, policy);
    }

    private static String address(RedisClusterNode node) {
        RedisURI uri = node.getUri();
        return uri == null ? node.getNodeId() : uri.getHost() + ":" + uri.getPort();
    }
}
