package io.flashsale.chaos.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How many records of the reservations topic the order consumers' group has not yet committed past, read from the
 * broker itself: the Kafka half of "the pipeline drained". Redis holding nothing RESERVED is not enough: a Redis that
 * lost a reservation's record (a SIGKILL with AOF everysec) holds nothing while its event still waits in Kafka for a
 * broker that is coming back, and the checker would then look before its order lands (docs/reliability.md, defect 16).
 */
public final class ConsumerLag implements AutoCloseable {

    private static final long PATIENCE_SECONDS = 5;

    private final Admin admin;
    private final String topic;
    private final String group;

    public ConsumerLag(String bootstrapServers, String topic, String group) {
        this.admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 3000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000));
        this.topic = topic;
        this.group = group;
    }

    /** The records behind over every partition; empty when the broker did not tell (down, or the topic unknown). */
    public OptionalLong behind() {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(PATIENCE_SECONDS, TimeUnit.SECONDS).get(topic);
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            description.partitions().forEach(partition ->
                    ends.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end = admin.listOffsets(ends).all()
                    .get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            long behind = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> partition : end.entrySet()) {
                OffsetAndMetadata position = committed.get(partition.getKey());
                behind += Math.max(0, partition.getValue().offset() - (position == null ? 0 : position.offset()));
            }
            return OptionalLong.of(behind);
        } catch (ExecutionException | TimeoutException notNow) {
            return OptionalLong.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the consumer group's lag", e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
