package io.flashsale.adapter.redis.archfixture;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;

/** Breaks the rules on purpose: the hot store's adapter deciding its own outages instead of adapter-outage. */
public final class RedisAdapterWithItsOwnBreaker {

    public CircuitBreaker breaker;
}
