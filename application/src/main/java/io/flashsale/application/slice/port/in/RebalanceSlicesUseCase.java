package io.flashsale.application.slice.port.in;

/**
 * Keeps each slice's share of a SKU in proportion to what its buyers take (ADR 109), so that a home slice rarely runs
 * short while others hold units: one runner at a time.
 */
public interface RebalanceSlicesUseCase {

    /** One look at every open sale in slices; returns how many transfers it asked for. */
    int rebalance();
}
