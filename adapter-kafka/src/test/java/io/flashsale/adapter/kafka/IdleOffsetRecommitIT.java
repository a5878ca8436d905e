package io.flashsale.adapter.kafka;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.flashsale.testsupport.LogCapture;
import io.flashsale.testsupport.TestServices;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.kafka.event.ListenerContainerIdleEvent;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link IdleOffsetRecommit} against a real broker: a consumer that read records and whose commit never reached the
 * group (as when a rebalance failed it) has its position committed at its next idle event; a paused consumer, or one
 * of another listener, is left as it is.
 */
@Timeout(60)
class IdleOffsetRecommitIT {

    private static final String TOPIC = "idle-recommit-it-" + UUID.randomUUID();
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    private static final String LISTENER = ReservationOrderListener.LISTENER_ID;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final IdleOffsetRecommit recommit = new IdleOffsetRecommit(LISTENER);

    @BeforeAll
    static void topicWithTenRecords() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, "key-" + i, "value-" + i)).get();
            }
        }
    }

    @Test
    void givenRecordsReadWhoseCommitWasLost_whenTheConsumerIsIdle_thenItsPositionIsCommitted() {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            readAll(consumer);
            assertThat(committed(consumer)).as("nothing committed yet").isNull();

            recommit.onApplicationEvent(idle(consumer, LISTENER + "-0", false));

            assertThat(committed(consumer)).isNotNull()
                    .extracting(OffsetAndMetadata::offset).isEqualTo(10L);
            assertThat(IdleOffsetRecommit.behind(consumer)).as("nothing behind afterwards").isEmpty();
        }
    }

    @Test
    void givenAPausedConsumerOrAnotherListener_whenIdle_thenNothingIsCommitted() {
        try (KafkaConsumer<String, String> consumer = consumer()) {
            readAll(consumer);

            recommit.onApplicationEvent(idle(consumer, LISTENER + "-0", true));
            recommit.onApplicationEvent(idle(consumer, "another-listener-0", false));

            assertThat(committed(consumer)).isNull();
            assertThat(IdleOffsetRecommit.behind(consumer)).containsEntry(PARTITION, new OffsetAndMetadata(10));
        }
    }

    @Test
    void givenABrokerThatDoesNotAnswer_whenIdleAgainAndAgain_thenOneWarningUntilAnAskSucceeds() throws IOException {
        KafkaConsumer<String, String> unanswered = consumer(nobodyListening());
        try (LogCapture log = LogCapture.of(IdleOffsetRecommit.class);
             KafkaConsumer<String, String> answered = consumer()) {
            recommit.onApplicationEvent(idle(unanswered, LISTENER + "-0", false));
            recommit.onApplicationEvent(idle(unanswered, LISTENER + "-0", false));
            assertThat(levels(log)).as("the second failure is not a warning").containsExactly(Level.WARN);

            recommit.onApplicationEvent(idle(answered, LISTENER + "-0", false));
            recommit.onApplicationEvent(idle(unanswered, LISTENER + "-0", false));

            assertThat(levels(log)).as("read again, then a new failure warns once more")
                    .containsExactly(Level.WARN, Level.INFO, Level.WARN);
        } finally {
            unanswered.close(CloseOptions.timeout(Duration.ZERO)); // no broker to leave the group at
        }
    }

    private static List<Level> levels(LogCapture log) {
        return log.events().stream().map(ILoggingEvent::getLevel).filter(level -> level.isGreaterOrEqual(Level.INFO)).toList();
    }

    /** A loopback address with a port nothing listens on: every ask of a consumer there times out. */
    private static String nobodyListening() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "127.0.0.1:" + socket.getLocalPort();
        }
    }

    private static KafkaConsumer<String, String> consumer() {
        return consumer(bootstrapServers());
    }

    /** A consumer of a group of its own, on the topic's one partition, that never commits by itself. */
    private static KafkaConsumer<String, String> consumer(String bootstrapServers) {
        KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, "idle-recommit-" + UUID.randomUUID(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
        consumer.assign(List.of(PARTITION));
        return consumer;
    }

    private static void readAll(KafkaConsumer<String, String> consumer) {
        int read = 0;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (read < 10) {
            assertThat(System.nanoTime()).as("10 records read in time").isLessThan(deadline);
            read += consumer.poll(Duration.ofMillis(200)).count();
        }
        assertThat(consumer.position(PARTITION)).isEqualTo(10L);
    }

    private static OffsetAndMetadata committed(KafkaConsumer<String, String> consumer) {
        return consumer.committed(Set.of(PARTITION), PATIENCE).get(PARTITION);
    }

    private static ListenerContainerIdleEvent idle(KafkaConsumer<String, String> consumer, String listenerId,
                                                   boolean paused) {
        return new ListenerContainerIdleEvent(consumer, consumer, 2_000, listenerId, List.of(PARTITION), consumer,
                paused);
    }

    private static String bootstrapServers() {
        return TestServices.kafka().bootstrapServers();
    }
}
