package io.flashsale.application.sale.model;

import io.flashsale.application.sale.port.out.NodeEvictionPolicy;

import java.util.List;

/**
 * A sale is not loaded into a hot store that may evict its keys when its memory is full: Redis would drop stock or
 * reservations without a word. Nothing was loaded; an operator sets {@code maxmemory-policy} to
 * {@value NodeEvictionPolicy#NO_EVICTION} and warms the sale up again.
 */
public class HotStoreMayEvictException extends RuntimeException {

    private final List<NodeEvictionPolicy> unsafe;

    public HotStoreMayEvictException(List<NodeEvictionPolicy> unsafe) {
        super("Redis may evict a sale's keys when its memory is full (maxmemory-policy " + unsafe + "); set "
                + "maxmemory-policy to " + NodeEvictionPolicy.NO_EVICTION + " (CONFIG SET and redis.conf)");
        this.unsafe = List.copyOf(unsafe);
    }

    public List<NodeEvictionPolicy> unsafe() {
        return unsafe;
    }
}
