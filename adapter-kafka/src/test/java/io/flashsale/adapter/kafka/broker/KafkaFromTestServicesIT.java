package io.flashsale.adapter.kafka.broker;

import io.flashsale.testsupport.KafkaEndpoint;
import io.flashsale.testsupport.TestServices;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The Kafka that every module's tests get from test-support carries records, and can be pointed elsewhere. */
class KafkaFromTestServicesIT {

    private static final String EXTERNAL = "FLASHSALE_TEST_KAFKA_BOOTSTRAP_SERVERS";

    @Test
    void givenTheTestKafka_whenRecordsAreProducedWithAcksAll_thenANewGroupReadsThemAll() throws Exception {
        KafkaEndpoint kafka = TestServices.kafka();
        String topic = "test-services-" + UUID.randomUUID();

        KafkaTestClient.createTopic(kafka.bootstrapServers(), topic, 3);
        List<String> acked = KafkaTestClient.produceAcked(kafka.bootstrapServers(), topic, 50);

        List<ConsumerRecord<String, String>> read =
                KafkaTestClient.readAll(kafka.bootstrapServers(), topic, 50, Duration.ofSeconds(20));
        assertThat(read).extracting(ConsumerRecord::key).containsExactlyInAnyOrderElementsOf(acked);
        assertThat(TestServices.kafka()).isEqualTo(kafka);
    }

    @Test
    void givenAnExternalBrokerIsNamed_whenTestsAskForKafka_thenTheyGetThatBroker(@TempDir Path dataDirectory) throws Exception {
        String previous = System.getProperty(EXTERNAL);
        try (EmbeddedKafkaBroker external = EmbeddedKafkaBroker.start(EmbeddedKafkaSettings.inDirectory(dataDirectory))) {
            System.setProperty(EXTERNAL, external.bootstrapServers());

            KafkaEndpoint kafka = TestServices.kafka();

            assertThat(kafka.bootstrapServers()).isEqualTo(external.bootstrapServers());
            String topic = "external-" + UUID.randomUUID();
            KafkaTestClient.createTopic(kafka.bootstrapServers(), topic, 1);
            assertThat(KafkaTestClient.topicNames(external.bootstrapServers())).contains(topic);
        } finally {
            if (previous == null) {
                System.clearProperty(EXTERNAL);
            } else {
                System.setProperty(EXTERNAL, previous);
            }
        }
    }
}
