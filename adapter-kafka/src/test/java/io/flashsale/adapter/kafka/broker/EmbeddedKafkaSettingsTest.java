package io.flashsale.adapter.kafka.broker;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaSettingsTest {

    private final EmbeddedKafkaSettings defaults = EmbeddedKafkaSettings.inDirectory(Path.of("data/kafka"));

    @Test
    void givenOnlyADirectory_whenSettingsAreMade_thenTheyListenOnLoopbackWithFreePortsAndAnAbsoluteDirectory() {
        assertThat(defaults.host()).isEqualTo("127.0.0.1");
        assertThat(defaults.port()).isZero();
        assertThat(defaults.controllerPort()).isZero();
        assertThat(defaults.dataDirectory()).isAbsolute().endsWithRaw(Path.of("data", "kafka"));
        assertThat(defaults.brokerProperties()).isEmpty();
    }

    @Test
    void givenTheSamePortForClientsAndController_whenSettingsAreMade_thenTheyAreRefused() {
        assertThatThrownBy(() -> defaults.withPort(9092).withControllerPort(9092))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two ports");
    }

    @Test
    void givenAPortOutOfRange_whenSettingsAreMade_thenTheyAreRefused() {
        assertThatThrownBy(() -> defaults.withPort(65_536)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> defaults.withControllerPort(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenBrokerProperties_whenAnotherIsAdded_thenBothAreKeptAndTheEarlierSettingsAreUnchanged() {
        EmbeddedKafkaSettings one = defaults.withBrokerProperty("num.partitions", "3");
        EmbeddedKafkaSettings two = one.withBrokerProperty("log.flush.interval.messages", "1");

        assertThat(two.brokerProperties())
                .containsEntry("num.partitions", "3")
                .containsEntry("log.flush.interval.messages", "1");
        assertThat(one.brokerProperties()).containsOnlyKeys("num.partitions");
    }
}
