package io.flashsale.adapter.kafka.broker;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BrokerPropertiesTest {

    private final EmbeddedKafkaSettings settings = EmbeddedKafkaSettings.inDirectory(Path.of("/var/lib/flashsale/kafka"));

    @Test
    void givenPorts_whenPropertiesAreMade_thenClientsAndTheSingleVoterControllerListenOnTheirOwnPorts() {
        Map<String, String> properties = BrokerProperties.of(settings, 19092, 19093);

        assertThat(properties)
                .containsEntry("process.roles", "broker,controller")
                .containsEntry("listeners", "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093")
                .containsEntry("advertised.listeners", "PLAINTEXT://127.0.0.1:19092")
                .containsEntry("controller.quorum.voters", "1@127.0.0.1:19093")
                .containsEntry("log.dirs", "/var/lib/flashsale/kafka");
    }

    @Test
    void givenOneNode_whenPropertiesAreMade_thenNothingWaitsForReplicasOrCreatesTopicsByItself() {
        Map<String, String> properties = BrokerProperties.of(settings, 19092, 19093);

        assertThat(properties)
                .containsEntry("offsets.topic.replication.factor", "1")
                .containsEntry("transaction.state.log.replication.factor", "1")
                .containsEntry("transaction.state.log.min.isr", "1")
                .containsEntry("min.insync.replicas", "1")
                .containsEntry("group.initial.rebalance.delay.ms", "0")
                .containsEntry("auto.create.topics.enable", "false");
    }

    @Test
    void givenABrokerProperty_whenPropertiesAreMade_thenItWinsOverTheDefault() {
        Map<String, String> properties = BrokerProperties.of(
                settings.withBrokerProperty("auto.create.topics.enable", "true"), 19092, 19093);

        assertThat(properties).containsEntry("auto.create.topics.enable", "true");
    }
}
