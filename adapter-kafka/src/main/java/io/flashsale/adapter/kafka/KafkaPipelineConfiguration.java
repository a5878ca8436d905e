package io.flashsale.adapter.kafka;

import io.flashsale.application.order.port.in.PlaceOrderBatchUseCase;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.outage.port.out.DatabaseProbePort;
import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.RetryListener;

import java.time.Duration;

/**
 * The reservation pipeline's Kafka beans, on top of Spring Boot's Kafka auto-configuration (its ProducerFactory,
 * KafkaTemplate, ConsumerFactory, listener container factory and KafkaAdmin, which creates the two topics below
 * when they are absent). Needs a {@link PlaceOrderBatchUseCase} bean and an {@link OrderPipelineMetricsPort} bean, which
 * hears of every dead-lettered event; any {@link RetryListener} beans hear of every failed delivery and dead letter too.
 *
 * <p>Properties, with defaults: {@code flashsale.kafka.topic} (flashsale.reservations),
 * {@code flashsale.kafka.dead-letter-topic} (the topic + ".DLT"), {@code flashsale.kafka.partitions} (3, both
 * topics), {@code flashsale.kafka.replication-factor} (1), {@code flashsale.kafka.publish-timeout} (10s),
 * {@code flashsale.kafka.consumer.group-id} (flashsale-orders), {@code flashsale.kafka.consumer.concurrency} (3),
 * {@code flashsale.kafka.consumer.max-poll-records} (500: the largest batch one listener call settles; below
 * 1000, see ADR 33),
 * {@code flashsale.kafka.retry.initial-interval} (200ms), {@code flashsale.kafka.retry.multiplier} (2.0),
 * {@code flashsale.kafka.retry.max-interval} (10s), {@code flashsale.kafka.retry.max-attempts} (6, the first
 * delivery included; a store out of reach never uses them up: ADR 78), {@code flashsale.kafka.retry.probe-interval}
 * (1s: while a store is out of reach, how often the database is asked whether it answers again),
 * {@code flashsale.kafka.dead-letters.timeout} (10s).
 *
 * <p>The producer must be idempotent with acks=all, or the publisher refuses to start:
 * {@code spring.kafka.producer.acks=all}, {@code spring.kafka.producer.properties[enable.idempotence]=true}, and
 * {@code spring.kafka.producer.properties[max.block.ms]} at or below the publish timeout. The listener sets its
 * own {@code auto.offset.reset=earliest} and {@code enable.auto.commit=false}.
 */
@Configuration(proxyBeanMethods = false)
@EnableKafka
public class KafkaPipelineConfiguration {

    private static final String TOPIC = "${flashsale.kafka.topic:flashsale.reservations}";
    private static final String DEAD_LETTER_TOPIC = "${flashsale.kafka.dead-letter-topic:" + TOPIC + ".DLT}";

    @Bean
    NewTopic reservationsTopic(@Value(TOPIC) String topic,
                               @Value("${flashsale.kafka.partitions:3}") int partitions,
                               @Value("${flashsale.kafka.replication-factor:1}") short replicationFactor) {
        return TopicBuilder.name(topic).partitions(partitions).replicas(replicationFactor).build();
    }

    @Bean
    NewTopic reservationsDeadLetterTopic(@Value(DEAD_LETTER_TOPIC) String deadLetterTopic,
                                         @Value("${flashsale.kafka.partitions:3}") int partitions,
                                         @Value("${flashsale.kafka.replication-factor:1}") short replicationFactor) {
        return TopicBuilder.name(deadLetterTopic).partitions(partitions).replicas(replicationFactor).build();
    }

    @Bean
    KafkaReservationEventPublisher kafkaReservationEventPublisher(
            KafkaTemplate<String, String> kafkaTemplate, @Value(TOPIC) String topic,
            @Value("${flashsale.kafka.publish-timeout:10s}") Duration publishTimeout) {
        return new KafkaReservationEventPublisher(kafkaTemplate, topic, publishTimeout);
    }

    @Bean
    RetryPolicy reservationRetryPolicy(@Value("${flashsale.kafka.retry.initial-interval:200ms}") Duration initialInterval,
                                       @Value("${flashsale.kafka.retry.multiplier:2.0}") double multiplier,
                                       @Value("${flashsale.kafka.retry.max-interval:10s}") Duration maxInterval,
                                       @Value("${flashsale.kafka.retry.max-attempts:6}") int maxAttempts,
                                       @Value("${flashsale.kafka.retry.probe-interval:1s}") Duration probeInterval) {
        return new RetryPolicy(initialInterval, multiplier, maxInterval, maxAttempts, probeInterval);
    }

    /** A consumer without a {@link DatabaseProbePort} bean takes its partitions up again after each probe interval. */
    @Bean(name = ReservationListenerContainerSetup.BEAN_NAME, destroyMethod = "close")
    ReservationListenerContainerSetup reservationListenerContainerSetup(
            KafkaTemplate<String, String> kafkaTemplate, @Value(DEAD_LETTER_TOPIC) String deadLetterTopic,
            RetryPolicy reservationRetryPolicy, ObjectProvider<DatabaseProbePort> database,
            OrderPipelineMetricsPort metrics, ObjectProvider<RetryListener> retryListeners) {
        return new ReservationListenerContainerSetup(kafkaTemplate, deadLetterTopic, reservationRetryPolicy,
                database.getIfAvailable(() -> DatabaseProbePort.UNPROBED), metrics,
                retryListeners.orderedStream().toList());
    }

    @Bean
    ReservationOrderListener reservationOrderListener(
            PlaceOrderBatchUseCase placeOrderBatchUseCase, @Value(TOPIC) String topic,
            @Value("${flashsale.kafka.consumer.group-id:flashsale-orders}") String groupId,
            @Value("${flashsale.kafka.consumer.concurrency:3}") int concurrency,
            @Value("${flashsale.kafka.consumer.max-poll-records:500}") int maxPollRecords) {
        return new ReservationOrderListener(placeOrderBatchUseCase, topic, groupId, concurrency, maxPollRecords);
    }

    @Bean
    IdleOffsetRecommit idleOffsetRecommit() {
        return new IdleOffsetRecommit(ReservationOrderListener.LISTENER_ID);
    }

    @Bean
    KafkaDeadLetters kafkaDeadLetters(ConsumerFactory<?, ?> consumerFactory, KafkaTemplate<String, String> kafkaTemplate,
                                      @Value(TOPIC) String topic, @Value(DEAD_LETTER_TOPIC) String deadLetterTopic,
                                      @Value("${flashsale.kafka.dead-letters.timeout:10s}") Duration timeout) {
        return new KafkaDeadLetters(consumerFactory.getConfigurationProperties(), kafkaTemplate, topic, deadLetterTopic,
                timeout);
    }

    /** Where the order consumer stands: what reconciliation's "in flight" and the rebuild's wait are decided by. */
    @Bean(destroyMethod = "close")
    KafkaPipelinePositions kafkaPipelinePositions(KafkaAdmin kafkaAdmin, @Value(TOPIC) String topic,
                                                  @Value("${flashsale.kafka.consumer.group-id:flashsale-orders}")
                                                  String groupId, KafkaDeadLetters kafkaDeadLetters,
                                                  @Value("${flashsale.kafka.dead-letters.timeout:10s}")
                                                  Duration timeout) {
        return new KafkaPipelinePositions(kafkaAdmin.getConfigurationProperties(), topic, groupId, kafkaDeadLetters,
                timeout);
    }
}
