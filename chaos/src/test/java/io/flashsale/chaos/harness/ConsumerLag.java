package io.flashsale.chaos.harness;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

import java.util.ArrayList;
import java.util.Comparator;
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
            long behind = 0;
            for (PartitionLag partition : partitions()) {
                behind += partition.behind();
            }
            return OptionalLong.of(behind);
        } catch (ExecutionException | TimeoutException notNow) {
            return OptionalLong.empty();
        }
    }

    /**
     * Each partition behind (its end and the group's committed offset) and the group's state and members' assignments:
     * what a round that waited out its patience on the lag prints, so the cause can be told from the output.
     */
    public String explained() {
        try {
            StringBuilder text = new StringBuilder();
            for (PartitionLag partition : partitions()) {
                if (partition.behind() > 0) {
                    text.append(" partition ").append(partition.partition()).append(" end ").append(partition.end())
                            .append(" committed ").append(partition.committed()).append(';');
                }
            }
            ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all()
                    .get(PATIENCE_SECONDS, TimeUnit.SECONDS).get(group);
            text.append(" group ").append(description.groupState()).append(", members");
            description.members().forEach(member -> text.append(' ').append(member.clientId()).append(' ')
                    .append(member.assignment().topicPartitions().stream().map(TopicPartition::partition).sorted()
                            .toList()));
            return text.toString();
        } catch (ExecutionException | TimeoutException notNow) {
            return " (the broker did not tell: " + notNow + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while describing the consumer group", e);
        }
    }

    private record PartitionLag(int partition, long end, long committed) {

        long behind() {
            return Math.max(0, end - committed);
        }
    }

    private List<PartitionLag> partitions() throws ExecutionException, TimeoutException {
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
            List<PartitionLag> lags = new ArrayList<>();
            end.forEach((partition, offset) -> {
                OffsetAndMetadata position = committed.get(partition);
                lags.add(new PartitionLag(partition.partition(), offset.offset(),
                        position == null ? 0 : position.offset()));
            });
            lags.sort(Comparator.comparingInt(PartitionLag::partition));
            return lags;
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
