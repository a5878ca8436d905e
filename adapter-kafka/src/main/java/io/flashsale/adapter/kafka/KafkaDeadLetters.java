package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.DeadLetter;
import io.flashsale.application.order.port.out.DeadLetterPort;
import io.flashsale.application.order.port.out.EventPublishException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.core.KafkaTemplate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The dead-letter topic as the admin sees it. Reads with a short-lived consumer that is assigned the partitions
 * directly, in no consumer group and committing nothing, so reading never moves anyone's position; a dead letter
 * stays in the topic after a replay (the topic's retention removes it). Ids are {@link DeadLetterPosition}s.
 */
public class KafkaDeadLetters implements DeadLetterPort {

    private static final Duration POLL = Duration.ofMillis(100);

    private final Map<String, Object> readerConfig;
    private final KafkaTemplate<String, String> template;
    private final String topic;
    private final String deadLetterTopic;
    private final Duration timeout;

    /**
     * @param clientConfig connection settings for the reader (bootstrap servers, security), e.g. the consumer
     *                     factory's; group, commit and deserializer settings in it are replaced
     * @param timeout      how long one read or one replay may take
     */
    public KafkaDeadLetters(Map<String, Object> clientConfig, KafkaTemplate<String, String> template, String topic,
                            String deadLetterTopic, Duration timeout) {
        Map<String, Object> config = new HashMap<>(clientConfig);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.remove(ConsumerConfig.CLIENT_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        this.readerConfig = Map.copyOf(config);
        this.template = template;
        this.topic = topic;
        this.deadLetterTopic = deadLetterTopic;
        this.timeout = timeout;
    }

    /** Oldest first by the time each event was dead-lettered. */
    @Override
    public List<DeadLetter> list(int max) {
        if (max < 1) {
            return List.of();
        }
        try (KafkaConsumer<String, String> reader = newReader()) {
            List<TopicPartition> partitions = partitions(reader);
            if (partitions.isEmpty()) {
                return List.of();
            }
            List<ConsumerRecord<String, String>> records = readFromBeginning(reader, partitions, max);
            return records.stream()
                    .sorted(Comparator.<ConsumerRecord<String, String>>comparingLong(ConsumerRecord::timestamp)
                            .thenComparingInt(ConsumerRecord::partition)
                            .thenComparingLong(ConsumerRecord::offset))
                    .limit(max)
                    .map(KafkaDeadLetters::toDeadLetter)
                    .toList();
        }
    }

    @Override
    public Optional<DeadLetter> find(String deadLetterId) {
        Optional<DeadLetterPosition> position = DeadLetterPosition.parse(deadLetterId);
        if (position.isEmpty()) {
            return Optional.empty();
        }
        try (KafkaConsumer<String, String> reader = newReader()) {
            var partition = new TopicPartition(deadLetterTopic, position.get().partition());
            if (!partitions(reader).contains(partition)) {
                return Optional.empty();
            }
            long offset = position.get().offset();
            // Assigned before asking for offsets: the consumer keeps watermarks only of partitions it owns.
            reader.assign(List.of(partition));
            long first = reader.beginningOffsets(List.of(partition), timeout).get(partition);
            long end = reader.endOffsets(List.of(partition), timeout).get(partition);
            if (offset < first || offset >= end) {
                return Optional.empty();
            }
            reader.seek(partition, offset);
            return readOne(reader, offset);
        }
    }

    /** @throws EventPublishException when the main topic did not acknowledge the event within the timeout */
    @Override
    public void replay(DeadLetter deadLetter) {
        try {
            template.send(topic, deadLetter.reservationId(), deadLetter.payload())
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new EventPublishException("interrupted while replaying dead letter " + deadLetter.id(), interrupted);
        } catch (ExecutionException | TimeoutException | RuntimeException notAcknowledged) {
            throw new EventPublishException("dead letter " + deadLetter.id() + " was not acknowledged by " + topic
                    + " within " + timeout, notAcknowledged);
        }
    }

    private KafkaConsumer<String, String> newReader() {
        return new KafkaConsumer<>(readerConfig);
    }

    private List<TopicPartition> partitions(KafkaConsumer<String, String> reader) {
        List<PartitionInfo> infos = reader.partitionsFor(deadLetterTopic, timeout);
        return infos == null ? List.of()
                : infos.stream().map(info -> new TopicPartition(info.topic(), info.partition())).toList();
    }

    /** The first {@code max} records of every partition (the oldest {@code max} overall are among them). */
    private List<ConsumerRecord<String, String>> readFromBeginning(
            KafkaConsumer<String, String> reader, List<TopicPartition> partitions, int max) {
        reader.assign(partitions);
        Map<TopicPartition, Long> ends = reader.endOffsets(partitions, timeout);
        reader.seekToBeginning(partitions);
        Map<TopicPartition, Integer> taken = new HashMap<>();
        Set<TopicPartition> open = new HashSet<>(partitions);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            open.removeIf(partition -> taken.getOrDefault(partition, 0) >= max
                    || reader.position(partition, timeout) >= ends.get(partition));
            if (open.isEmpty()) {
                return records;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("could not read " + deadLetterTopic + " within " + timeout);
            }
            reader.pause(partitions.stream().filter(partition -> !open.contains(partition)).toList());
            for (ConsumerRecord<String, String> record : reader.poll(POLL)) {
                var partition = new TopicPartition(record.topic(), record.partition());
                if (record.offset() < ends.get(partition) && taken.merge(partition, 1, Integer::sum) <= max) {
                    records.add(record);
                }
            }
        }
    }

    private Optional<DeadLetter> readOne(KafkaConsumer<String, String> reader, long offset) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (ConsumerRecord<String, String> record : reader.poll(POLL)) {
                // A compacted or transactional log may skip the offset: then there is no such dead letter.
                return record.offset() == offset ? Optional.of(toDeadLetter(record)) : Optional.empty();
            }
        }
        throw new IllegalStateException("could not read " + deadLetterTopic + " within " + timeout);
    }

    private static DeadLetter toDeadLetter(ConsumerRecord<String, String> record) {
        String error = header(record, KafkaHeaders.DLT_EXCEPTION_MESSAGE)
                .or(() -> header(record, KafkaHeaders.DLT_EXCEPTION_CAUSE_FQCN))
                .or(() -> header(record, KafkaHeaders.DLT_EXCEPTION_FQCN))
                .orElse(null);
        return new DeadLetter(new DeadLetterPosition(record.partition(), record.offset()).toString(), record.key(),
                record.value() == null ? "" : record.value(), error, Instant.ofEpochMilli(record.timestamp()));
    }

    private static Optional<String> header(ConsumerRecord<String, String> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? Optional.empty()
                : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }
}
