package io.flashsale.testsupport;

import java.util.List;

/** A Redis Cluster's seed nodes as {@code host:port}, for {@code spring.data.redis.cluster.nodes}. */
public record RedisClusterEndpoint(List<String> nodes) {

    public RedisClusterEndpoint {
        nodes = List.copyOf(nodes);
    }

    /** {@code redis://host:port} per node, for Lettuce's {@code RedisClusterClient}. */
    public List<String> uris() {
        return nodes.stream().map(node -> "redis://" + node).toList();
    }
}
