package io.flashsale.application.port.out;

import java.util.List;

/** What the hot store does when its memory is full: Redis's {@code maxmemory-policy}, on each node holding sales. */
public interface EvictionPolicyPort {

    /**
     * Every node's policy, read now.
     *
     * @throws StoreUnavailableException when the hot store does not answer
     */
    List<NodeEvictionPolicy> read();
}
