package io.flashsale.adapter.kafka.broker;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EmbeddedKafkaBrokerIT {

    private static final String TOPIC = "flashsale.reservations";
    private static final int RECORDS = 300;
    private static final Duration READ_WITHIN = Duration.ofSeconds(20);

    @TempDir
    Path dataDirectory;

    @Test
    void givenAckedRecords_whenTheBrokerIsClosedAndStartedAgainOnTheSameDirectory_thenEveryRecordIsServed() throws Exception {
        List<String> acked;
        String clusterId;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaSettings.inDirectory(dataDirectory))) {
            clusterId = broker.clusterId();
            KafkaTestClient.createTopic(broker.bootstrapServers(), TOPIC, 3);
            acked = KafkaTestClient.produceAcked(broker.bootstrapServers(), TOPIC, RECORDS);
            broker.close();
        }

        try (EmbeddedKafkaBroker restarted = EmbeddedKafkaBroker.start(EmbeddedKafkaSettings.inDirectory(dataDirectory))) {
            assertThat(restarted.clusterId()).isEqualTo(clusterId);
            List<ConsumerRecord<String, String>> served =
                    KafkaTestClient.readAll(restarted.bootstrapServers(), TOPIC, RECORDS, READ_WITHIN);
            assertThat(served).extracting(ConsumerRecord::key).containsExactlyInAnyOrderElementsOf(acked);
            assertThat(served).allSatisfy(record ->
                    assertThat(record.value()).isEqualTo(record.key().replace("key-", "value-")));
        }
    }

    @Test
    void givenAckedRecords_whenTheBrokerProcessIsKilledWithSigkill_thenARestartOnTheSameDirectoryServesEveryOne() throws Exception {
        Path brokerData = dataDirectory.resolve("kafka");
        List<String> acked;
        try (BrokerProcess broker = BrokerProcess.start(brokerData, dataDirectory.resolve("first.log"), Duration.ofSeconds(60))) {
            KafkaTestClient.createTopic(broker.bootstrapServers(), TOPIC, 3);
            acked = KafkaTestClient.produceAcked(broker.bootstrapServers(), TOPIC, RECORDS);
            broker.kill();
        }

        try (BrokerProcess restarted = BrokerProcess.start(brokerData, dataDirectory.resolve("second.log"), Duration.ofSeconds(60))) {
            assertThat(KafkaTestClient.topicNames(restarted.bootstrapServers())).contains(TOPIC);
            List<ConsumerRecord<String, String>> served =
                    KafkaTestClient.readAll(restarted.bootstrapServers(), TOPIC, RECORDS, READ_WITHIN);
            assertThat(served).extracting(ConsumerRecord::key).containsExactlyInAnyOrderElementsOf(acked);
        }
    }

    @Test
    void givenARunningBroker_whenASecondOneStartsOnItsDirectory_thenTheSecondIsRefusedAndTheFirstServesOn() throws Exception {
        try (EmbeddedKafkaBroker first = EmbeddedKafkaBroker.start(EmbeddedKafkaSettings.inDirectory(dataDirectory))) {
            assertThatThrownBy(() -> EmbeddedKafkaBroker.start(EmbeddedKafkaSettings.inDirectory(dataDirectory)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("another Kafka broker is using the data directory");

            KafkaTestClient.createTopic(first.bootstrapServers(), TOPIC, 1);
            assertThat(KafkaTestClient.topicNames(first.bootstrapServers())).contains(TOPIC);
        }
    }

    @Test
    void givenAClosedBroker_whenClosedAgain_thenNothingHappens() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(EmbeddedKafkaSettings.inDirectory(dataDirectory));
        broker.close();
        broker.close();
        assertThat(broker.bootstrapServers()).startsWith(EmbeddedKafkaSettings.DEFAULT_HOST + ":");
    }
}
