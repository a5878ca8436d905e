package io.flashsale.bootstrap.health;

import io.flashsale.adapter.redis.RedisHotStore;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Whether this instance can take reservations, for the readiness group: UP while Redis decides them, and UP while the
 * database does (the hot store's breaker is open, ADR 39), with {@code decidedBy} saying which. DOWN only when the
 * breaker is closed and Redis does not answer: the moments before the breaker opens. Without a breaker (the outage
 * mode off) it is Redis's own health. The {@code redis} indicator still shows Redis itself, DOWN during an outage.
 */
final class HotStoreHealthIndicator extends AbstractHealthIndicator {

    private final RedisHotStore redis;
    private final CircuitBreaker breaker;

    /** @param breaker null when the outage mode is off */
    HotStoreHealthIndicator(RedisHotStore redis, CircuitBreaker breaker) {
        super("hot store health check failed");
        this.redis = redis;
        this.breaker = breaker;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        if (breaker != null && breaker.getState() != CircuitBreaker.State.CLOSED) {
            builder.up().withDetail("decidedBy", "database").withDetail("breaker", breaker.getState().name());
            return;
        }
        redis.ping();
        builder.up().withDetail("decidedBy", "redis");
    }
}
