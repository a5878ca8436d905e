package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.DeadLetter;
import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The order pipeline's position in Kafka, asked of the cluster with one admin client: the order consumer group's
 * committed offsets, the reservations topic's end offsets, and the keys in the dead-letter topic (read through
 * {@link KafkaDeadLetters}, at most {@value #DEAD_LETTERS_READ} per partition: dead letters are few, and a pass asks
 * only when some reservation was read past without an order). Each call waits at most {@code timeout}.
 */
public final class KafkaPipelinePositions implements PipelinePositionPort, AutoCloseable {

    static final int DEAD_LETTERS_READ = 10_000;

    private final Admin admin;
    private final String topic;
    private final String groupId;
    private final KafkaDeadLetters deadLetters;
    private final Duration timeout;

    public KafkaPipelinePositions(Map<String, Object> adminConfig, String topic, String groupId,
                                  KafkaDeadLetters deadLetters, Duration timeout) {
        this.admin = Admin.create(adminConfig);
        this.topic = topic;
        this.groupId = groupId;
        this.deadLetters = deadLetters;
        this.timeout = timeout;
    }

    @Override
    public PipelineMark consumed() {
        Map<TopicPartition, OffsetAndMetadata> committed = await(admin.listConsumerGroupOffsets(groupId)
                .partitionsToOffsetAndMetadata(), "the committed offsets of group " + groupId);
        Map<Integer, Long> offsets = new HashMap<>();
        committed.forEach((partition, offset) -> {
            if (partition.topic().equals(topic) && offset != null) {
                offsets.put(partition.partition(), offset.offset());
            }
        });
        return new PipelineMark(offsets);
    }

    @Override
    public PipelineMark ends() {
        TopicDescription description = await(admin.describeTopics(List.of(topic)).topicNameValues().get(topic),
                "the partitions of " + topic);
        Map<TopicPartition, OffsetSpec> latest = description.partitions().stream()
                .collect(Collectors.toMap(info -> new TopicPartition(topic, info.partition()),
                        info -> OffsetSpec.latest()));
        Map<TopicPartition, ListOffsetsResultInfo> ends = await(admin.listOffsets(latest).all(),
                "the end offsets of " + topic);
        Map<Integer, Long> offsets = new HashMap<>();
        ends.forEach((partition, info) -> offsets.put(partition.partition(), info.offset()));
        return new PipelineMark(offsets);
    }

    @Override
    public Set<ReservationId> deadLettered(Collection<ReservationId> among) {
        if (among.isEmpty()) {
            return Set.of();
        }
        Set<String> keys = deadLetterKeys();
        Set<ReservationId> found = new HashSet<>();
        among.stream().filter(id -> keys.contains(id.value())).forEach(found::add);
        return found;
    }

    @Override
    public long deadLettersOf(ActivityId activityId) {
        return deadLetterKeys().stream()
                .filter(ReservationId::isValid)
                .map(ReservationId::new)
                .filter(id -> id.activityId().equals(activityId))
                .count();
    }

    private Set<String> deadLetterKeys() {
        return deadLetters.list(DEAD_LETTERS_READ).stream()
                .map(DeadLetter::reservationId)
                .filter(key -> key != null)
                .collect(Collectors.toSet());
    }

    private <T> T await(KafkaFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka for " + what, interrupted);
        } catch (ExecutionException | TimeoutException failed) {
            throw new IllegalStateException("Kafka did not tell " + what + " within " + timeout, failed);
        }
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
