package io.flashsale.acceptance.inspect;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The topic that carries "reserved" events from the outbox relay to the order consumer, as a test uses it: find
 * the event of one reservation and deliver an exact copy of it again, then learn when the consumer has moved past it.
 */
public final class ReservationsTopic {

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Duration POLL = Duration.ofMillis(200);

    private final String bootstrapServers;
    private final String topic;
    private final String consumerGroup;

    public ReservationsTopic(String bootstrapServers, String topic, String consumerGroup) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.consumerGroup = consumerGroup;
    }

    /** Where a record sits on the topic. */
    public record Position(int partition, long offset) {
    }

    /**
     * Publishes a byte-for-byte copy (same key, same value) of the event the relay published for this reservation.
     *
     * @return where the copy landed: on the original's partition, since the key is the same
     */
    public Position deliverAgain(String reservationId) {
        ConsumerRecord<String, String> original = find(reservationId).orElseThrow(() -> new AssertionError(
                "no event for reservation " + reservationId + " on topic " + topic));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            RecordMetadata copy = producer.send(new ProducerRecord<>(topic, original.key(), original.value()))
                    .get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            if (copy.partition() != original.partition()) {
                throw new AssertionError("the copy landed on partition " + copy.partition() + ", the original on "
                        + original.partition());
            }
            return new Position(copy.partition(), copy.offset());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while publishing a copy of " + reservationId, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("the broker did not take the copy of " + reservationId, e);
        }
    }

    /** True once the order consumer's group has committed an offset past the record: it handled it. */
    public boolean handled(Position position) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(consumerGroup)
                    .partitionsToOffsetAndMetadata().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            OffsetAndMetadata offset = committed.get(new TopicPartition(topic, position.partition()));
            return offset != null && offset.offset() > position.offset();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the offsets of " + consumerGroup, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the offsets of " + consumerGroup, e);
        }
    }

    /** Reads every partition from its beginning to its current end, in no consumer group, committing nothing. */
    private Optional<ConsumerRecord<String, String>> find(String reservationId) {
        try (KafkaConsumer<String, String> reader = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            List<PartitionInfo> infos = reader.partitionsFor(topic, PATIENCE);
            List<TopicPartition> partitions = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            reader.assign(partitions);
            reader.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = reader.endOffsets(partitions, PATIENCE);
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (partitions.stream().anyMatch(partition -> reader.position(partition) < ends.get(partition))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read topic " + topic + " within " + PATIENCE);
                }
                for (ConsumerRecord<String, String> record : reader.poll(POLL)) {
                    if (reservationId.equals(record.key())) {
                        return Optional.of(record);
                    }
                }
            }
            return Optional.empty();
        }
    }
}
