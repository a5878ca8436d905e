package io.flashsale.adapter.kafka.broker;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how the in-process broker runs. A port of 0 means "pick a free one when the broker starts".
 * {@code brokerProperties} are applied last, over the single-node defaults, for any other broker setting.
 */
public record EmbeddedKafkaSettings(
        Path dataDirectory, String host, int port, int controllerPort, Map<String, String> brokerProperties) {

    public static final String DEFAULT_HOST = "127.0.0.1";

    public EmbeddedKafkaSettings {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(brokerProperties, "brokerProperties");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        requirePort("port", port);
        requirePort("controllerPort", controllerPort);
        if (port != 0 && port == controllerPort) {
            throw new IllegalArgumentException("the client and controller listeners need two ports, both were " + port);
        }
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
        brokerProperties = Map.copyOf(brokerProperties);
    }

    /** Defaults: 127.0.0.1, both ports picked at start, no extra broker properties. */
    public static EmbeddedKafkaSettings inDirectory(Path dataDirectory) {
        return new EmbeddedKafkaSettings(dataDirectory, DEFAULT_HOST, 0, 0, Map.of());
    }

    public EmbeddedKafkaSettings withHost(String newHost) {
        return new EmbeddedKafkaSettings(dataDirectory, newHost, port, controllerPort, brokerProperties);
    }

    public EmbeddedKafkaSettings withPort(int newPort) {
        return new EmbeddedKafkaSettings(dataDirectory, host, newPort, controllerPort, brokerProperties);
    }

    public EmbeddedKafkaSettings withControllerPort(int newControllerPort) {
        return new EmbeddedKafkaSettings(dataDirectory, host, port, newControllerPort, brokerProperties);
    }

    public EmbeddedKafkaSettings withBrokerProperty(String name, String value) {
        Map<String, String> properties = new LinkedHashMap<>(brokerProperties);
        properties.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
        return new EmbeddedKafkaSettings(dataDirectory, host, port, controllerPort, properties);
    }

    private static void requirePort(String name, int value) {
        if (value < 0 || value > 65_535) {
            throw new IllegalArgumentException(name + " must be 0 (pick a free one) or a TCP port, was " + value);
        }
    }
}
