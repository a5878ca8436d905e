package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.application.sale.port.out.NodeEvictionPolicy;
import io.flashsale.application.sale.service.EvictionPolicyGuard;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;
import java.time.Duration;

/**
 * Redis's {@code maxmemory-policy} (ADR 77): read at start (an ERROR line while it may evict a sale's keys), before
 * every warm-up (refused while it may), and by readiness ({@code hotStoreEviction}) and {@value #UNSAFE} at most once
 * per {@code flashsale.redis.eviction-recheck} (10 s).
 */
@Configuration(proxyBeanMethods = false)
public class EvictionPolicyConfiguration {

    public static final String UNSAFE = "flashsale.hotstore.eviction.unsafe";

    private static final Logger LOG = LoggerFactory.getLogger(EvictionPolicyConfiguration.class);

    @Bean
    EvictionPolicyGuard evictionPolicyGuard(RedisHotStore redis, Clock clock,
                                            @Value("${flashsale.redis.eviction-recheck:10s}") Duration recheck,
                                            MeterRegistry meters) {
        PositiveDurations.require("flashsale.redis.eviction-recheck", recheck);
        EvictionPolicyGuard guard = new EvictionPolicyGuard(redis.evictionPolicies(), clock, recheck);
        Gauge.builder(UNSAFE, guard, read -> read.current().mayEvictSaleKeys() ? 1 : 0)
                .description("1 while a Redis node's maxmemory-policy may evict a sale's keys (anything but "
                        + NodeEvictionPolicy.NO_EVICTION + "), 0 otherwise or while unread")
                .register(meters);
        return guard;
    }

    /** At start: the service starts all the same (not ready), so the fix is seen without a restart. */
    @Bean
    ApplicationRunner evictionPolicyAtStart(EvictionPolicyGuard guard) {
        return arguments -> {
            try {
                EvictionPolicyGuard.EvictionCheck check = guard.checkNow();
                if (check.mayEvictSaleKeys()) {
                    LOG.error("Redis may evict a sale's keys when its memory is full: maxmemory-policy {}. Set it to "
                            + "{} (CONFIG SET maxmemory-policy {}, and in redis.conf); until then readiness is DOWN "
                            + "and warm-ups are refused", check.unsafe(), NodeEvictionPolicy.NO_EVICTION,
                            NodeEvictionPolicy.NO_EVICTION);
                } else {
                    LOG.info("Redis maxmemory-policy: {}", check.policies());
                }
            } catch (RuntimeException unread) {
                LOG.warn("Redis maxmemory-policy not read at start ({}); readiness reads it again", unread.toString());
            }
        };
    }
}
