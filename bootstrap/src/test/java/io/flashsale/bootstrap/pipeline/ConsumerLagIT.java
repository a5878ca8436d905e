package io.flashsale.bootstrap.pipeline;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.micrometer.core.instrument.Gauge;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Consumer lag per partition, as operators read it ({@value #LAG}, Kafka's client metric through Micrometer, in the
 * scrape as {@code kafka_consumer_fetch_manager_records_lag}): events on the topic that the order consumer has not
 * taken yet show as lag on their own partition, and the lag goes back to zero once they are consumed. The consumer
 * is made to fall behind by holding its batches (its use case waits), so events are produced without being consumed.
 * Its events are synthetic (a sale of its own that exists nowhere) and are dropped, not placed, once let go.
 */
class ConsumerLagIT extends PipelineTestBase {

    static final String LAG = "kafka.consumer.fetch.manager.records.lag";
    private static final int BEHIND_PER_PARTITION = 700;

    /**
     * Micrometer binds a Kafka client metric that appears after start-up (a partition's lag appears with its first
     * fetch) at its next check, once a minute: the lag of a newly fetched partition may take that long to show.
     */
    static final Duration METRIC_REFRESH = Duration.ofSeconds(90);

    @Test
    @Timeout(300)
    void givenEventsTheConsumerHasNotTaken_whenTheMetricsAreRead_thenEachPartitionShowsItsLagUntilTheyAreConsumed() {
        ActivityId activity = new ActivityId("lag-" + UUID.randomUUID().toString().substring(0, 8));
        Map<Integer, List<Reservation>> opening = new HashMap<>();
        Map<Integer, List<Reservation>> behind = new HashMap<>();
        for (int i = 0; opening.size() < PARTITIONS || behind.values().stream()
                .anyMatch(events -> events.size() < BEHIND_PER_PARTITION) || behind.size() < PARTITIONS; i++) {
            Reservation event = syntheticEvent(activity, i);
            int partition = partitionOf(event);
            if (!opening.containsKey(partition)) {
                opening.put(partition, List.of(event));
            } else if (behind.computeIfAbsent(partition, p -> new ArrayList<>()).size() < BEHIND_PER_PARTITION) {
                behind.get(partition).add(event);
            }
        }
        // An earlier test's second instance in the same group (SoldOutAcrossInstancesIT) may still hold partitions, or
        // leave the group later and so move them while they are held: the group must have settled on this instance.
        await().atMost(METRIC_REFRESH).pollInterval(Duration.ofMillis(500))
                .until(() -> groupSettledOnThisInstance() && assignedPartitions() == PARTITIONS);
        CrashingPlaceOrder.Holding holding = crashes.holdAndDrop(activity);
        try {
            // Every partition's consumer takes its first event and waits inside the batch.
            publisher.publish(opening.values().stream().flatMap(List::stream).toList());
            await().atMost(WITHIN).until(() -> holding.waiting() == PARTITIONS);
            // Longer than the broker's fetch wait (500 ms): a fetch sent before the next events is answered empty.
            sleep(Duration.ofMillis(1_000));
            publisher.publish(behind.values().stream().flatMap(List::stream).toList());
            // The waiting batches go; each consumer takes its next batch (at most max.poll.records) and waits again.
            holding.passOnce();

            await().atMost(METRIC_REFRESH).untilAsserted(() -> {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    long published = 1 + BEHIND_PER_PARTITION;
                    long delivered = deliveredOn(partition, holding);
                    assertThat(delivered).as("events of partition %d the consumer took", partition)
                            .isGreaterThan(1).isLessThan(published);
                    assertThat(lag(partition)).as("lag of partition %d", partition)
                            .isPositive().isEqualTo(published - delivered);
                }
            });
        } finally {
            crashes.stopHolding();
        }
        await().atMost(WITHIN).untilAsserted(() -> {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                assertThat(lag(partition)).as("lag of partition %d once consumed", partition).isZero();
            }
        });
    }

    private long deliveredOn(int partition, CrashingPlaceOrder.Holding holding) {
        return holding.delivered().stream().filter(id -> partitionOf(id) == partition).count();
    }

    /** The lag of this run's topic on one partition, summed over the consumers that report it (one owns it). */
    private double lag(int partition) {
        List<Gauge> gauges = List.copyOf(meters.find(LAG).tags("topic", TOPIC, "partition", Integer.toString(partition))
                .gauges());
        assertThat(gauges).as("lag gauges of partition %d", partition).isNotEmpty();
        return gauges.stream().mapToDouble(Gauge::value).sum();
    }

    private static Reservation syntheticEvent(ActivityId activity, int i) {
        return new Reservation(ReservationId.of(activity, "e" + i), activity, new BuyerId("lag-buyer-" + i),
                new RequestId("lag-" + i), List.of(new ReservationLine(new SkuId(SKU), 1)), ReservationStatus.RESERVED,
                Instant.now());
    }

    /** The producer's partition for a key: murmur2 of its bytes, as Kafka's built-in partitioner does. */
    private static int partitionOf(Reservation event) {
        return partitionOf(event.id());
    }

    private static int partitionOf(ReservationId id) {
        return Utils.toPositive(Utils.murmur2(id.value().getBytes(StandardCharsets.UTF_8))) % PARTITIONS;
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(interrupted);
        }
    }
}
