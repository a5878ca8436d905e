package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.testsupport.TestServices;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The publisher against a real broker: everything it returns for is on the topic; anything else is an exception. */
class KafkaReservationEventPublisherIT {

    private static final String TOPIC = "publisher-it-" + UUID.randomUUID();
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(3);
    private static final int MAX_BLOCK_MS = 1000;

    private final List<DefaultKafkaProducerFactory<String, String>> producerFactories = new ArrayList<>();

    @BeforeAll
    static void createTopic() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
        }
    }

    @AfterEach
    void closeProducers() {
        producerFactories.forEach(DefaultKafkaProducerFactory::destroy);
    }

    @Test
    void givenReservationsOfSeveralActivities_whenPublished_thenEachIsOnTheTopicKeyedByItsIdAndDecodesEqual() {
        List<ActivityId> activities = List.of(Reservations.newActivity(), Reservations.newActivity());
        List<Reservation> reservations = IntStream.range(0, 40)
                .mapToObj(i -> Reservations.reserved(activities.get(i % 2)))
                .toList();

        publisher(bootstrapServers(), TOPIC).publish(reservations);

        List<ConsumerRecord<String, String>> records = readAll(TOPIC, reservations.size());
        var codec = new ReservationMessageCodec();
        assertThat(records).hasSize(reservations.size());
        assertThat(records).allSatisfy(record -> assertThat(codec.decode(record.value()).id().value()).isEqualTo(record.key()));
        assertThat(records).extracting(record -> codec.decode(record.value()))
                .containsExactlyInAnyOrderElementsOf(reservations);
    }

    @Test
    void givenNoBrokerListens_whenPublishing_thenEventPublishExceptionWithinTheTimeout() throws IOException {
        var publisher = publisher("127.0.0.1:" + closedPort(), TOPIC);
        List<Reservation> reservations = List.of(Reservations.reserved(Reservations.newActivity()));

        long started = System.nanoTime();
        assertThatThrownBy(() -> publisher.publish(reservations)).isInstanceOf(EventPublishException.class);

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(ACK_TIMEOUT.plusMillis(MAX_BLOCK_MS));
    }

    @Test
    void givenATopicThatDoesNotExist_whenPublishing_thenEventPublishExceptionWithinTheTimeout() {
        var publisher = publisher(bootstrapServers(), "absent-" + UUID.randomUUID());
        ActivityId activity = Reservations.newActivity();
        List<Reservation> reservations = List.of(Reservations.reserved(activity), Reservations.reserved(activity));

        long started = System.nanoTime();
        assertThatThrownBy(() -> publisher.publish(reservations))
                .isInstanceOf(EventPublishException.class)
                .hasMessageContaining("absent-");

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(ACK_TIMEOUT.plusMillis(MAX_BLOCK_MS));
    }

    @Test
    void givenNothingToPublish_whenPublishing_thenItReturnsAtOnce() {
        var publisher = publisher("127.0.0.1:9", TOPIC);

        long started = System.nanoTime();
        publisher.publish(List.of());

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(MAX_BLOCK_MS));
    }

    /** The producer settings bootstrap sets through spring.kafka.producer.*: acks=all, idempotence, a short max.block.ms. */
    private KafkaReservationEventPublisher publisher(String bootstrapServers, String topic) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK_MS);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        var producerFactory = new DefaultKafkaProducerFactory<String, String>(config);
        // Closing must not wait for sends that will never be acknowledged.
        producerFactory.setPhysicalCloseTimeout(1);
        producerFactories.add(producerFactory);
        return new KafkaReservationEventPublisher(new KafkaTemplate<>(producerFactory), topic, ACK_TIMEOUT);
    }

    private static List<ConsumerRecord<String, String>> readAll(String topic, int expected) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "publisher-it-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config)) {
            consumer.subscribe(List.of(topic));
            // Reads a little past the expected count so that an extra record would show.
            long quietUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(deadline, quietUntil)) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
                if (records.size() >= expected && quietUntil == Long.MAX_VALUE) {
                    quietUntil = System.nanoTime() + Duration.ofMillis(500).toNanos();
                }
            }
        }
        return records;
    }

    private static int closedPort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String bootstrapServers() {
        return TestServices.kafka().bootstrapServers();
    }
}
