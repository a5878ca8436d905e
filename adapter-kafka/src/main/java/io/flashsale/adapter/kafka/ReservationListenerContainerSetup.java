package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.outage.port.out.DatabaseProbePort;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.KafkaException;
import org.springframework.kafka.config.ContainerPostProcessor;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties.AckMode;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RetryListener;

import org.springframework.util.backoff.BackOff;

import java.util.ArrayList;
import java.util.List;

/**
 * How the order consumer's container commits and fails, applied to that one container only, so listeners that
 * bootstrap may add keep their own error handling, and a CommonErrorHandler or ContainerCustomizer bean elsewhere
 * (which Boot would apply to every container) cannot replace it.
 *
 * <ul>
 *   <li>AckMode BATCH: after each poll, the container commits the offsets of the poll once the batch listener
 *   returned (or of the records before the index a {@code BatchListenerFailedException} names, and those that went to
 *   the dead-letter topic), in one commit; never an offset whose order was not placed.
 *   A crash re-delivers at most one poll ({@code max.poll.records}) per partition, which the idempotent order
 *   placement absorbs; a commit per record would add a broker round trip to every order.</li>
 *   <li>A batch that met a store out of reach ({@link StoresUnavailableBatchException}) is back-pressure, not a
 *   failure of its events (ADR 78): the attempts never run out; between two of them the container is paused and the
 *   database probed every {@link RetryPolicy#probeInterval()} ({@link DatabaseProbingBackOffHandler}), and resumed once
 *   it answers. Every such attempt is counted ({@link OrderPipelineMetricsPort#waitedForStores}).</li>
 *   <li>A failing event is retried with exponential back-off, then published unchanged (key, value, headers plus
 *   spring-kafka's {@code kafka_dlt-*} headers) to the dead-letter topic, on whichever partition its key hashes to
 *   (so the dead-letter topic may have fewer partitions than the main one). An event that cannot be decoded
 *   ({@link MalformedReservationMessageException}) is dead-lettered at once. If the dead-letter topic does not
 *   take it, the event is not committed and is tried again.</li>
 *   <li>A consumer idle for {@link IdleOffsetRecommit#IDLE_AFTER} commits its position where the group's offset is
 *   behind it: a batch commit that failed is not tried again by the container.</li>
 *   <li>Every dead-lettered event is reported to the application's {@link OrderPipelineMetricsPort}, so operators
 *   count dead letters without seeing Kafka.</li>
 * </ul>
 */
public class ReservationListenerContainerSetup
        implements ContainerPostProcessor<Object, Object, AbstractMessageListenerContainer<Object, Object>>,
        AutoCloseable {

    public static final String BEAN_NAME = "reservationListenerContainerSetup";

    private static final Logger LOG = LoggerFactory.getLogger(ReservationListenerContainerSetup.class);

    private final DefaultErrorHandler errorHandler;
    private final DatabaseProbingBackOffHandler backPressure;

    /**
     * @param database       asked, while a store is out of reach, whether the database answers again
     * @param metrics        told of every dead-lettered event and of every attempt that waited for the stores
     * @param retryListeners told of every failed delivery and of every dead-lettered event as well
     */
    public ReservationListenerContainerSetup(KafkaOperations<?, ?> template, String deadLetterTopic,
                                             RetryPolicy retryPolicy, DatabaseProbePort database,
                                             OrderPipelineMetricsPort metrics, List<RetryListener> retryListeners) {
        var recoverer = new DeadLetterPublishingRecoverer(template,
                (record, failure) -> new TopicPartition(deadLetterTopic, -1));
        backPressure = new DatabaseProbingBackOffHandler(database);
        errorHandler = new DefaultErrorHandler(recoverer, retryPolicy.backOff(), backPressure);
        // Also when it comes as the cause of a BatchListenerFailedException: the classifier looks through causes.
        errorHandler.addNotRetryableExceptions(MalformedReservationMessageException.class);
        BackOff whileStoresAreOut = retryPolicy.whileStoresAreOut();
        errorHandler.setBackOffFunction((record, failure) -> StoreOutages.isIn(failure) ? whileStoresAreOut : null);
        // A record that waited for the stores and then fails by itself starts the bounded back-off afresh (and the
        // other way round): the two failures are exceptions of different classes.
        errorHandler.setResetStateOnExceptionChange(true);
        // Each failed attempt is expected and retried: a warning, not an error with a stack trace.
        errorHandler.setLogLevel(KafkaException.Level.WARN);
        List<RetryListener> listeners = new ArrayList<>(retryListeners);
        listeners.add(new FailureLog(deadLetterTopic));
        listeners.add(new DeadLetterReport(metrics));
        listeners.add(new StoreWaitReport(metrics));
        errorHandler.setRetryListeners(listeners.toArray(RetryListener[]::new));
    }

    @Override
    public void postProcess(AbstractMessageListenerContainer<Object, Object> container) {
        container.getContainerProperties().setAckMode(AckMode.BATCH);
        // Idle events for IdleOffsetRecommit: a batch's lost commit is made good once the partition is quiet.
        container.getContainerProperties().setIdleEventInterval(IdleOffsetRecommit.IDLE_AFTER.toMillis());
        container.setCommonErrorHandler(errorHandler);
    }

    public DefaultErrorHandler errorHandler() {
        return errorHandler;
    }

    @Override
    public void close() {
        backPressure.close();
    }

    /** Counts the attempts of batches that waited for a store out of reach. */
    private record StoreWaitReport(OrderPipelineMetricsPort metrics) implements RetryListener {

        @Override
        public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
            // Counted once per batch below.
        }

        @Override
        public void failedDelivery(ConsumerRecords<?, ?> records, Exception failure, int deliveryAttempt) {
            if (failure != null && StoreOutages.isIn(failure)) {
                metrics.waitedForStores(records.count());
            }
        }
    }

    /** Hands each dead-lettered event to the application's metrics port, by its key: the reservation id. */
    private record DeadLetterReport(OrderPipelineMetricsPort metrics) implements RetryListener {

        @Override
        public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
            // Failed attempts are retried and logged by FailureLog; only the final give-up is reported.
        }

        @Override
        public void recovered(ConsumerRecord<?, ?> record, Exception failure) {
            metrics.deadLettered(String.valueOf(record.key()));
        }

        /** A whole batch that ran out of attempts (the database down, not one record) was dead-lettered. */
        @Override
        public void recovered(ConsumerRecords<?, ?> records, Exception failure) {
            records.forEach(record -> metrics.deadLettered(String.valueOf(record.key())));
        }
    }

    /**
     * One line per failed attempt, without a stack trace; the dead-lettering itself as a warning too. A line about
     * one record carries its ids in the MDC ({@link ReservationLogContext}).
     */
    private record FailureLog(String deadLetterTopic) implements RetryListener {

        @Override
        public void failedDelivery(ConsumerRecord<?, ?> record, Exception failure, int deliveryAttempt) {
            ReservationLogContext.during(record, () -> LOG.warn("attempt {} to place reservation {} failed: {}",
                    deliveryAttempt, record.key(), failure == null ? null : rootMessage(failure)));
        }

        @Override
        public void recovered(ConsumerRecord<?, ?> record, Exception failure) {
            ReservationLogContext.during(record, () -> LOG.warn(
                    "reservation {} ({}-{}@{}) moved to {} after its last attempt: {}", record.key(), record.topic(),
                    record.partition(), record.offset(), deadLetterTopic, failure == null ? null : rootMessage(failure)));
        }

        @Override
        public void failedDelivery(ConsumerRecords<?, ?> records, Exception failure, int deliveryAttempt) {
            LOG.warn("attempt {} to place a batch of {} reservations failed: {}", deliveryAttempt, records.count(),
                    failure == null ? null : rootMessage(failure));
        }

        @Override
        public void recovered(ConsumerRecords<?, ?> records, Exception failure) {
            LOG.warn("a batch of {} reservations moved to {} after its last attempt: {}", records.count(),
                    deadLetterTopic, failure == null ? null : rootMessage(failure));
        }

        @Override
        public void recoveryFailed(ConsumerRecord<?, ?> record, Exception original, Exception failure) {
            ReservationLogContext.during(record, () -> LOG.error(
                    "reservation {} could not be moved to {}; it stays uncommitted and is tried again", record.key(),
                    deadLetterTopic, failure));
        }

        private static String rootMessage(Throwable failure) {
            Throwable root = failure;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return root.toString();
        }
    }
}
