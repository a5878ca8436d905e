package io.flashsale.application.sale.port.out;

/**
 * One hot-store node's {@code maxmemory-policy}. Only {@value #NO_EVICTION} keeps a sale's keys when memory is full:
 * every {@code allkeys-*} policy may evict any key, and every {@code volatile-*} policy the keys with a time to live,
 * which a sale has (its rate-limit buckets, ADR 60), ADR 77.
 *
 * @param node   where the node listens, {@code host:port}
 * @param policy the policy as the node names it
 */
public record NodeEvictionPolicy(String node, String policy) {

    public static final String NO_EVICTION = "noeviction";

    public NodeEvictionPolicy {
        if (node == null || node.isBlank() || policy == null || policy.isBlank()) {
            throw new IllegalArgumentException("an eviction policy needs a node and a policy, not " + node + " "
                    + policy);
        }
    }

    public boolean mayEvictSaleKeys() {
        return !NO_EVICTION.equals(policy);
    }

    @Override
    public String toString() {
        return policy + " on " + node;
    }
}
