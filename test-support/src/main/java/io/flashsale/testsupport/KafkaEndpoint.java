package io.flashsale.testsupport;

import java.util.Objects;

/** A Kafka cluster that tests may create topics on; give each test its own topic names. */
public record KafkaEndpoint(String bootstrapServers) {

    public KafkaEndpoint {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        if (bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("bootstrapServers must not be blank");
        }
    }
}
