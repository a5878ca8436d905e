package io.flashsale.bootstrap.config;

import io.flashsale.adapter.kafka.KafkaPipelineConfiguration;
import io.flashsale.adapter.metrics.MicrometerOrderPipelineMetrics;
import io.flashsale.adapter.metrics.OutboxBacklogGauges;
import io.flashsale.adapter.mysql.cache.RememberedActivities;
import io.flashsale.adapter.scheduling.LifecyclePasses;
import io.flashsale.adapter.scheduling.OutboxRelayLoop;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.adapter.scheduling.RelayNames;
import io.flashsale.adapter.scheduling.SingleRunners;
import io.flashsale.application.order.port.out.DeadLetterPort;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.OutboxNewsPort;
import io.flashsale.application.order.port.out.ReservationEventPublisherPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.order.service.BatchOrderService;
import io.flashsale.application.order.service.BuyerCrowd;
import io.flashsale.application.order.service.DeadLetterReleaseService;
import io.flashsale.application.order.service.DeadLetterService;
import io.flashsale.application.order.service.NewsDrivenRelay;
import io.flashsale.application.order.service.OrdersGiveWay;
import io.flashsale.application.order.service.OutboxRelayService;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.bootstrap.kafka.EmbeddedKafkaLauncher;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;

import java.time.Clock;
import java.time.Duration;

/**
 * From reservation to order: the outbox relay (Redis -> Kafka), the order consumer (Kafka -> MySQL, adapter-kafka's
 * batch listener calling {@link BatchOrderService}), dead letters, and the metrics of all three.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RelayProperties.class)
@Import(KafkaPipelineConfiguration.class)
public class OrderPipelineConfiguration {

    /** One name per process start: a restarted instance's leftovers are claimed like any dead relay's. */
    private final String relayName = RelayNames.forThisInstance();

    /** Static: a bean factory post-processor must exist before the configuration class itself. */
    @Bean
    static EmbeddedKafkaLauncher embeddedKafkaLauncher(ConfigurableEnvironment environment) {
        return new EmbeddedKafkaLauncher(environment);
    }

    @Bean
    MicrometerOrderPipelineMetrics orderPipelineMetrics(MeterRegistry registry) {
        return new MicrometerOrderPipelineMetrics(registry);
    }

    /** Each batch waits while this instance's buyers queue for its CPU, at most the configured wait (ADR 65). */
    @Bean
    BatchOrderService batchOrderService(OrderPlacementPort placement, OrderTransitionsPort transitions,
                                        RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore,
                                        HeldReservationsPort held, ReservationTransitionsPort moves,
                                        OrderPipelineMetricsPort metrics, Clock clock,
                                        BuyerCrowd buyers, GiveWayProperties giveWay) {
        return new BatchOrderService(placement, transitions, restoreQueue, hotStore, held, moves, metrics, clock,
                OrdersGiveWay.to(buyers, giveWay.maxWait(), giveWay.look(), clock));
    }

    @Bean
    OutboxRelayService outboxRelayService(ReservationOutboxPort outbox, ReservationEventPublisherPort publisher,
                                          OrderPipelineMetricsPort metrics, RelayProperties relay) {
        return new OutboxRelayService(outbox, publisher, metrics, relayName, relay.staleAfter(), relay.batchSize());
    }

    /** Reads the outboxes with news, and sweeps the rest slowly (ADR 67); listens only where it relays. */
    @Bean
    NewsDrivenRelay newsDrivenRelay(OutboxRelayService outboxRelayService, ReservationOutboxPort outbox,
                                    OutboxNewsPort news, RelayProperties relay) {
        var newsDriven = new NewsDrivenRelay(outboxRelayService, outbox, relay.sweep());
        if (relay.enabled()) {
            news.subscribe(newsDriven);
        }
        return newsDriven;
    }

    @Bean
    OutboxRelayLoop outboxRelayLoop(NewsDrivenRelay newsDrivenRelay, RelayProperties relay) {
        return new OutboxRelayLoop(newsDrivenRelay, relayName, relay.interval(), relay.failureBackoff(),
                relay.enabled());
    }

    /**
     * Outbox depth and oldest age (ADR 38): the wall clock, as the outbox's entry ids carry Redis's, not the
     * (possibly moved) service clock.
     */
    @Bean
    OutboxBacklogGauges outboxBacklogGauges(ReservationOutboxPort outbox, MeterRegistry registry) {
        return new OutboxBacklogGauges(outbox, Clock.systemUTC(), Duration.ofSeconds(1), registry);
    }

    @Bean
    DeadLetterService deadLetterService(DeadLetterPort deadLetters) {
        return new DeadLetterService(deadLetters);
    }

    /** A dead letter holds its units until its payment deadline at most (ADR 78); the sales' terms from memory. */
    @Bean
    DeadLetterReleaseService deadLetterReleaseService(DeadLetterPort deadLetters, HeldReservationsPort held,
                                                      OrderPlacementPort placement, HotStoreSettlementPort hotStore,
                                                      RememberedActivities activities, OrderPipelineMetricsPort metrics,
                                                      Clock clock) {
        return new DeadLetterReleaseService(deadLetters, held, placement, hotStore, activities, metrics, clock);
    }

    @Bean
    PeriodicLoop deadLetterReleaseLoop(DeadLetterReleaseService release, LifecycleProperties lifecycle,
                                       SingleRunners singleRunners) {
        return new PeriodicLoop("dead-letter-release", singleRunners.guard("dead-letter-release",
                LifecyclePasses.deadLetterRelease(release, DeadLetterService.MAX_LISTED),
                lifecycle.deadLetterReleaseInterval()), lifecycle.deadLetterReleaseInterval(),
                lifecycle.deadLetterReleaseEnabled());
    }
}
