package io.flashsale.bootstrap.health;

import io.flashsale.adapter.kafka.KafkaBrokerProbe;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.application.sale.service.EvictionPolicyGuard;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import java.time.Duration;
import java.util.List;

/**
 * Health of the three servers, named {@code redis}, {@code kafka} and (Boot's own) {@code db}; all three are in the
 * readiness group (application.yaml), so a load balancer stops sending buyers to an instance that lost one. So is
 * {@code hotStoreEviction}: Redis's eviction policy.
 */
@Configuration(proxyBeanMethods = false)
public class HealthConfiguration {

    @Bean
    HealthIndicator redisHealthIndicator(RedisHotStore redis) {
        return new RedisHealthIndicator(redis);
    }

    /** Redis outage (ADR 39): in the readiness group instead of {@code redis}, UP while the database decides too. */
    @Bean
    HealthIndicator hotStoreHealthIndicator(RedisHotStore redis, ObjectProvider<CircuitBreaker> breaker) {
        return new HotStoreHealthIndicator(redis, breaker.getIfAvailable());
    }

    /** In the readiness group: DOWN while Redis may evict a sale's keys (ADR 77). */
    @Bean
    HealthIndicator hotStoreEvictionHealthIndicator(EvictionPolicyGuard guard) {
        return new EvictionPolicyHealthIndicator(guard);
    }

    @Bean(destroyMethod = "close")
    KafkaBrokerProbe kafkaBrokerProbe(Environment environment) {
        // A list in YAML or one comma-separated string: the binder reads both, as Boot's Kafka properties do.
        List<String> servers = Binder.get(environment)
                .bind("spring.kafka.bootstrap-servers", Bindable.listOf(String.class)).orElse(List.of());
        return new KafkaBrokerProbe(String.join(",", servers));
    }

    @Bean
    HealthIndicator kafkaHealthIndicator(KafkaBrokerProbe probe,
                                         @Value("${flashsale.health.kafka-timeout:2s}") Duration timeout) {
        return new KafkaHealthIndicator(probe, timeout);
    }
}
