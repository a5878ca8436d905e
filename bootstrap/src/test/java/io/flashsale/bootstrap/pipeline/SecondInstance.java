package io.flashsale.bootstrap.pipeline;

import io.flashsale.bootstrap.FlashsaleApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A second service instance of the deployment a {@link PipelineTestBase} test runs in: the same Redis, Kafka,
 * MariaDB, topic, group and outbox registry, on ports of its own.
 */
final class SecondInstance {

    /** The properties that make an instance part of this test's deployment (PipelineTestBase sets them). */
    private static final List<String> DEPLOYMENT = List.of("spring.data.redis.host", "spring.data.redis.port",
            "spring.datasource.url", "spring.datasource.username", "spring.datasource.password",
            "spring.datasource.hikari.connection-timeout", "spring.datasource.hikari.validation-timeout",
            "flashsale.admin.token", "spring.kafka.bootstrap-servers", "flashsale.kafka.topic",
            "flashsale.kafka.consumer.group-id", "flashsale.kafka.publish-timeout", "flashsale.kafka.retry.initial-interval",
            "flashsale.kafka.retry.max-interval", "flashsale.kafka.retry.max-attempts",
            "flashsale.kafka.dead-letters.timeout", "flashsale.redis.outbox-registry", "flashsale.relay.stale-after",
            "flashsale.lifecycle.expiry-interval", "flashsale.lifecycle.restore-sweep-interval",
            "flashsale.warm-up.schedule-enabled", "flashsale.archive.schedule-enabled",
            "flashsale.reconciliation.schedule-enabled", "flashsale.reconciliation.grace");

    private SecondInstance() {
    }

    /** Starts it with the first instance's deployment properties and {@code own} on top. */
    static ConfigurableApplicationContext start(Environment first, Map<String, String> own) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String key : DEPLOYMENT) {
            String value = first.getProperty(key);
            if (value != null) {
                properties.put(key, value);
            }
        }
        properties.put("server.port", "0");
        properties.put("management.server.port", "0");
        properties.putAll(own);
        // As command-line arguments: they win over application.yaml, as the first instance's test properties do.
        return new SpringApplicationBuilder(FlashsaleApplication.class).run(properties.entrySet().stream()
                .map(property -> "--" + property.getKey() + "=" + property.getValue()).toArray(String[]::new));
    }

    /** A client of the started instance's API. */
    static ServiceClient client(ConfigurableApplicationContext instance, String adminToken) {
        return new ServiceClient(Integer.parseInt(instance.getEnvironment().getProperty("local.server.port")),
                adminToken);
    }
}
