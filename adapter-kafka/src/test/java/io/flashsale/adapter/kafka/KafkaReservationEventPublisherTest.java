package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.EventPublishException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.Reservation;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import io.flashsale.application.order.port.out.EventPosition;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The publisher refuses a producer that could lose or reorder an acknowledged reservation, and reports sends the
 * broker did not acknowledge. The broker's side is in {@link KafkaReservationEventPublisherIT}; here a template
 * whose sends never complete, or fail, stands for a broker that cannot be made to stall on cue.
 */
class KafkaReservationEventPublisherTest {

    @Test
    void givenAnIdempotentProducerWithAcksAll_whenThePublisherIsMade_thenItIsAccepted() {
        assertThatCode(() -> new KafkaReservationEventPublisher(template(config("all", true)), "topic"))
                .doesNotThrowAnyException();
        assertThatCode(() -> new KafkaReservationEventPublisher(template(config("-1", "true")), "topic"))
                .doesNotThrowAnyException();
    }

    @Test
    void givenAcksOne_whenThePublisherIsMade_thenItIsRefused() {
        assertThatThrownBy(() -> new KafkaReservationEventPublisher(template(config("1", true)), "topic"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("acks=all");
    }

    @Test
    void givenIdempotenceOffOrLeftToTheClientDefault_whenThePublisherIsMade_thenItIsRefused() {
        assertThatThrownBy(() -> new KafkaReservationEventPublisher(template(config("all", false)), "topic"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("enable.idempotence");
        assertThatThrownBy(() -> new KafkaReservationEventPublisher(template(config("all", null)), "topic"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("enable.idempotence");
    }

    @Test
    void givenSendsThatAreNeverAcknowledged_whenPublishing_thenEventPublishExceptionOnceTheTimeoutIsUp() {
        var template = new ScriptedTemplate(config("all", true), id -> new CompletableFuture<>());
        var publisher = new KafkaReservationEventPublisher(template, "topic", Duration.ofMillis(300));
        ActivityId activity = Reservations.newActivity();
        List<Reservation> batch = List.of(Reservations.reserved(activity), Reservations.reserved(activity));

        long started = System.nanoTime();
        assertThatThrownBy(() -> publisher.publish(batch))
                .isInstanceOf(EventPublishException.class)
                .hasMessageContaining("2 of 2 reservations were not acknowledged by topic within PT0.3S")
                .hasCauseInstanceOf(TimeoutException.class);

        // One deadline for the whole batch, not one per send.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(Duration.ofMillis(300), Duration.ofMillis(550));
        assertThat(template.sent).containsExactlyElementsOf(batch.stream().map(r -> r.id().value()).toList());
    }

    @Test
    void givenOneSendOfABatchFails_whenPublishing_thenEventPublishExceptionWithTheBrokersReason() {
        ActivityId activity = Reservations.newActivity();
        List<Reservation> batch = List.of(Reservations.reserved(activity), Reservations.reserved(activity),
                Reservations.reserved(activity));
        String failing = batch.get(1).id().value();
        var template = new ScriptedTemplate(config("all", true), id -> id.equals(failing)
                ? CompletableFuture.failedFuture(new IllegalStateException("NOT_ENOUGH_REPLICAS"))
                : stored(7));
        var publisher = new KafkaReservationEventPublisher(template, "topic", Duration.ofSeconds(1));

        assertThatThrownBy(() -> publisher.publish(batch))
                .isInstanceOf(EventPublishException.class)
                .hasMessageContaining("1 of 3")
                .hasRootCauseMessage("NOT_ENOUGH_REPLICAS");
    }

    @Test
    void givenEverySendIsAcknowledged_whenPublishing_thenItReturnsAfterSendingEachKeyedByItsId() {
        ActivityId activity = Reservations.newActivity();
        List<Reservation> batch = List.of(Reservations.reserved(activity), Reservations.reserved(activity));
        var template = new ScriptedTemplate(config("all", true), id -> stored(7));

        new KafkaReservationEventPublisher(template, "topic", Duration.ofSeconds(1)).publish(batch);

        assertThat(template.sent).containsExactlyElementsOf(batch.stream().map(r -> r.id().value()).toList());
    }

    @Test
    void givenEverySendIsAcknowledged_whenPublishingAt_thenEachEventsPartitionAndOffsetInOrder() {
        ActivityId activity = Reservations.newActivity();
        List<Reservation> batch = List.of(Reservations.reserved(activity), Reservations.reserved(activity));
        String second = batch.get(1).id().value();
        var template = new ScriptedTemplate(config("all", true), id -> stored(id.equals(second) ? 42 : 41));

        List<EventPosition> positions = new KafkaReservationEventPublisher(template, "topic", Duration.ofSeconds(1))
                .publishAt(batch);

        assertThat(positions).containsExactly(new EventPosition(2, 41), new EventPosition(2, 42));
    }

    /** What the broker answers for an event it stored at {@code offset} of partition 2. */
    private static CompletableFuture<SendResult<String, String>> stored(long offset) {
        var metadata = new RecordMetadata(new TopicPartition("topic", 2), offset, 0, 0L, 0, 0);
        return CompletableFuture.completedFuture(new SendResult<>(null, metadata));
    }

    /** Answers each send with the future the script gives for its key; sends nothing anywhere. */
    private static final class ScriptedTemplate extends KafkaTemplate<String, String> {

        private final Function<String, CompletableFuture<SendResult<String, String>>> script;
        private final List<String> sent = new CopyOnWriteArrayList<>();

        ScriptedTemplate(Map<String, Object> config, Function<String, CompletableFuture<SendResult<String, String>>> script) {
            super(new DefaultKafkaProducerFactory<>(config));
            this.script = script;
        }

        @Override
        public CompletableFuture<SendResult<String, String>> send(String topic, String key, String data) {
            sent.add(key);
            return script.apply(key);
        }
    }

    private static Map<String, Object> config(String acks, Object idempotence) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.ACKS_CONFIG, acks);
        if (idempotence != null) {
            config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotence);
        }
        return config;
    }

    private static KafkaTemplate<String, String> template(Map<String, Object> config) {
        return new KafkaTemplate<>(new DefaultKafkaProducerFactory<>(config));
    }
}
