package io.flashsale.bootstrap.health;

import io.flashsale.adapter.kafka.KafkaBrokerProbe;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

import java.time.Duration;

/** UP when the cluster names at least one broker within the timeout. */
final class KafkaHealthIndicator extends AbstractHealthIndicator {

    private final KafkaBrokerProbe probe;
    private final Duration timeout;

    KafkaHealthIndicator(KafkaBrokerProbe probe, Duration timeout) {
        super("Kafka health check failed");
        this.probe = probe;
        this.timeout = timeout;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        int brokers = probe.brokers(timeout);
        (brokers > 0 ? builder.up() : builder.down()).withDetail("brokers", brokers)
                .withDetail("bootstrapServers", probe.bootstrapServers());
    }
}
