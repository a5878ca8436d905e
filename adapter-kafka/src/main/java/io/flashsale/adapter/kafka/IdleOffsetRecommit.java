package io.flashsale.adapter.kafka;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationListener;
import org.springframework.kafka.event.ListenerContainerIdleEvent;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * While a consumer of the order listener is idle, commits each assigned partition's position where it is past the
 * group's committed offset. The container clears the offsets of a batch before committing them, so a commit that
 * failed (the group rebalanced under it after a broker restart and no longer knew the member: UNKNOWN_MEMBER_ID) is
 * not tried again, and the committed offset stays behind the placed records until the partition's next record. A sale
 * the hot store lost is rebuilt only once the committed offsets reach the records it sold (ADR 30), so on a quiet
 * partition its rebuild would wait for ever (docs/reliability.md, defect 22).
 * <p>
 * Idle, the position is what was placed: the container asks for records only after the batch before was committed or
 * sought back by the error handler, and a consumer paused (waiting for its stores) is left alone. Runs on the
 * consumer's own thread, where the container publishes the event.
 */
public final class IdleOffsetRecommit implements ApplicationListener<ListenerContainerIdleEvent> {

    /** How long a consumer must have had no record before its position is compared with the committed offset. */
    public static final Duration IDLE_AFTER = Duration.ofSeconds(2);

    private static final Logger LOG = LoggerFactory.getLogger(IdleOffsetRecommit.class);
    /** How long the idle consumer's thread may wait for the broker: a broker that does not answer is asked again. */
    private static final Duration PATIENCE = Duration.ofSeconds(2);

    private final String listenerId;
    /**
     * Set from a failed ask until one succeeds: a broker that is down fails every idle consumer's ask every interval,
     * so the first failure is a warning and the rest until the broker answers again are debug lines.
     */
    private final AtomicBoolean failing = new AtomicBoolean();

    /** @param listenerId the listener whose consumers are watched (each of its child containers adds a suffix) */
    public IdleOffsetRecommit(String listenerId) {
        this.listenerId = listenerId;
    }

    @Override
    public void onApplicationEvent(ListenerContainerIdleEvent event) {
        if (event.isPaused() || event.getListenerId() == null || !event.getListenerId().startsWith(listenerId)) {
            return;
        }
        try {
            Map<TopicPartition, OffsetAndMetadata> behind = behind(event.getConsumer());
            if (!behind.isEmpty()) {
                event.getConsumer().commitSync(behind, PATIENCE);
                LOG.info("committed the positions of idle partitions the group's offsets were behind: {}", behind);
            }
            if (failing.getAndSet(false)) {
                LOG.info("idle partitions' committed offsets are read again");
            }
        } catch (WakeupException stopping) {
            throw stopping;
        } catch (KafkaException notNow) {
            // The next idle event asks again; a record on the partition commits past it anyway.
            if (failing.compareAndSet(false, true)) {
                LOG.warn("idle partitions' positions not committed this time (said once until an ask succeeds): {}",
                        notNow.toString());
            } else {
                LOG.debug("idle partitions' positions not committed this time: {}", notNow.toString());
            }
        }
    }

    /** The assigned partitions whose position is past the committed offset, with the position to commit. */
    static Map<TopicPartition, OffsetAndMetadata> behind(Consumer<?, ?> consumer) {
        Set<TopicPartition> assigned = consumer.assignment();
        Map<TopicPartition, OffsetAndMetadata> behind = new HashMap<>();
        if (assigned.isEmpty()) {
            return behind;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(assigned, PATIENCE);
        for (TopicPartition partition : assigned) {
            long position = consumer.position(partition, PATIENCE);
            OffsetAndMetadata done = committed.get(partition);
            if (position > (done == null ? 0 : done.offset())) {
                behind.put(partition, new OffsetAndMetadata(position));
            }
        }
        return behind;
    }
}
