package io.flashsale.bootstrap.health;

import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.flashsale.application.sale.service.EvictionPolicyGuard;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code hotStoreEviction}, in the readiness group: DOWN while a Redis node's {@code maxmemory-policy} may evict a
 * sale's keys (ADR 77), UP while every node keeps them, UNKNOWN until the policy could be read (Redis out of reach: the
 * {@code hotStore} component speaks for that).
 */
final class EvictionPolicyHealthIndicator extends AbstractHealthIndicator {

    private final EvictionPolicyGuard guard;

    EvictionPolicyHealthIndicator(EvictionPolicyGuard guard) {
        super("Redis eviction policy check failed");
        this.guard = guard;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        EvictionPolicyGuard.EvictionCheck check = guard.current();
        if (!check.read()) {
            builder.unknown().withDetail("maxmemoryPolicy", "not read yet");
            return;
        }
        (check.mayEvictSaleKeys() ? builder.down() : builder.up())
                .withDetail("maxmemoryPolicy", check.policies().stream().map(NodeEvictionPolicy::toString).toList())
                .withDetail("readAt", check.readAt().toString());
        if (check.mayEvictSaleKeys()) {
            builder.withDetail("fix", "CONFIG SET maxmemory-policy " + NodeEvictionPolicy.NO_EVICTION
                    + " on each node, and in redis.conf");
        }
    }
}
