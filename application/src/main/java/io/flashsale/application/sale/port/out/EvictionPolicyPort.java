package io.flashsale.application.sale.port.out;

import io.flashsale.application.shared.port.out.StoreUnavailableException;

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
