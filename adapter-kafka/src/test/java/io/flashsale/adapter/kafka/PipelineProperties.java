package io.flashsale.adapter.kafka;

import io.flashsale.testsupport.TestServices;
import org.springframework.test.context.DynamicPropertyRegistry;

/** The settings bootstrap gives Boot, with the back-off shortened so that a dead letter takes well under a second. */
final class PipelineProperties {

    private PipelineProperties() {
    }

    static void register(DynamicPropertyRegistry registry, String topic, String group, int maxAttempts) {
        registry.add("spring.kafka.bootstrap-servers", () -> TestServices.kafka().bootstrapServers());
        registry.add("spring.kafka.producer.acks", () -> "all");
        registry.add("spring.kafka.producer.properties[enable.idempotence]", () -> "true");
        registry.add("spring.kafka.producer.properties[max.block.ms]", () -> "5000");
        registry.add("flashsale.kafka.topic", () -> topic);
        registry.add("flashsale.kafka.consumer.group-id", () -> group);
        registry.add("flashsale.kafka.publish-timeout", () -> "5s");
        registry.add("flashsale.kafka.retry.initial-interval", () -> "50ms");
        registry.add("flashsale.kafka.retry.max-interval", () -> "200ms");
        registry.add("flashsale.kafka.retry.max-attempts", () -> maxAttempts);
        registry.add("flashsale.kafka.retry.probe-interval", () -> "200ms");
        registry.add("flashsale.kafka.dead-letters.timeout", () -> "5s");
    }
}
