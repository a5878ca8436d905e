package io.flashsale.bootstrap.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param outboxRegistry the Redis set of activities whose outboxes the relays read; every instance of one deployment
 *                       must use the same, and deployments (or test runs) sharing one Redis each their own
 */
@ConfigurationProperties("flashsale.redis")
public record OutboxRegistryProperties(@DefaultValue("fs:outbox:activities") String outboxRegistry) {

    public OutboxRegistryProperties {
        if (outboxRegistry == null || outboxRegistry.isBlank()) {
            throw new IllegalArgumentException("flashsale.redis.outbox-registry must not be blank");
        }
    }
}
