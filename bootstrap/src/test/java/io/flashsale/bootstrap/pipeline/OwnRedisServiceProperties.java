package io.flashsale.bootstrap.pipeline;

import io.flashsale.testsupport.TestServices;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The whole service on a redis-server of the test's own (which it may SIGKILL), the shared MariaDB and broker: a topic,
 * consumer group and outbox registry of the test's own, no scheduled warm-up, archive or reconciliation (the test
 * drives them), and a breaker and recovery loop quick enough for a test.
 */
final class OwnRedisServiceProperties {

    private OwnRedisServiceProperties() {
    }

    /** @param name a word for the test's topic, group and outbox registry, unique per run */
    static void register(DynamicPropertyRegistry registry, int redisPort, String adminToken, String name) {
        registry.add("spring.data.redis.host", () -> "127.0.0.1");
        registry.add("spring.data.redis.port", () -> redisPort);
        registry.add("spring.data.redis.timeout", () -> "1s");
        PipelineDatabase.datasource().registerIn(registry);
        registry.add("flashsale.admin.token", () -> adminToken);
        registry.add("spring.kafka.bootstrap-servers", () -> TestServices.kafka().bootstrapServers());
        registry.add("flashsale.kafka.topic", () -> "flashsale-it-" + name);
        registry.add("flashsale.kafka.consumer.group-id", () -> "flashsale-it-" + name);
        registry.add("flashsale.kafka.publish-timeout", () -> "5s");
        registry.add("flashsale.redis.outbox-registry", () -> "fs:outbox:it-" + name);
        registry.add("flashsale.relay.stale-after", () -> "500ms");
        registry.add("flashsale.warm-up.schedule-enabled", () -> "false");
        registry.add("flashsale.archive.schedule-enabled", () -> "false");
        registry.add("flashsale.reconciliation.schedule-enabled", () -> "false");
        registry.add("flashsale.outage.probe-interval", () -> "200ms");
        registry.add("flashsale.outage.sliding-window", () -> "4");
        registry.add("flashsale.outage.minimum-calls", () -> "2");
        registry.add("flashsale.payment.buyer-confirms", () -> "true");
    }
}
