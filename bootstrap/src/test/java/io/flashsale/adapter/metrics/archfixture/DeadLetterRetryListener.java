package io.flashsale.adapter.metrics.archfixture;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.RetryListener;

/** Breaks the rules on purpose: a metric that counts dead letters through spring-kafka's callback. */
public class DeadLetterRetryListener implements RetryListener {

    @Override
    public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
    }
}
