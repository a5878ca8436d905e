package io.flashsale.adapter.kafka;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.RetryListener;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/** What the error handler reported: every failed delivery with its attempt number, and every dead-lettered record. */
final class RecordingRetryListener implements RetryListener {

    record FailedDelivery(String key, int attempt, TopicPartition partition, long offset) {
    }

    private final List<FailedDelivery> failures = new CopyOnWriteArrayList<>();
    private final List<String> deadLettered = new CopyOnWriteArrayList<>();

    @Override
    public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
        failures.add(new FailedDelivery(String.valueOf(record.key()), deliveryAttempt,
                new TopicPartition(record.topic(), record.partition()), record.offset()));
    }

    @Override
    public void recovered(ConsumerRecord<?, ?> record, Exception failure) {
        deadLettered.add(String.valueOf(record.key()));
    }

    List<FailedDelivery> failuresOf(String key) {
        return failures.stream().filter(failure -> Objects.equals(failure.key(), key)).toList();
    }

    long deadLetteredCount(String key) {
        return deadLettered.stream().filter(key::equals).count();
    }
}
