package io.flashsale.bootstrap.health;

import io.flashsale.adapter.redis.RedisHotStore;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** UP when Redis answers a PING on the service's own connection. */
final class RedisHealthIndicator extends AbstractHealthIndicator {

    private final RedisHotStore redis;

    RedisHealthIndicator(RedisHotStore redis) {
        super("Redis health check failed");
        this.redis = redis;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetail("ping", redis.ping());
    }
}
