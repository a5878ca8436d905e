package io.flashsale.bootstrap.config;

import io.flashsale.adapter.metrics.LostReservationReports;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.service.AcknowledgementJournal;
import io.flashsale.application.reconciliation.service.LostReservationAudit;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * Acknowledged reservations Redis lost are reported, not silently dropped (ADR 0047): every instance
 * journals what it told buyers RESERVED and, after each Redis restart, audits its own journal against both stores.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(DurabilityAuditProperties.class)
public class DurabilityAuditConfiguration {

    @Bean
    AcknowledgementJournal acknowledgementJournal(DurabilityAuditProperties audit) {
        return new AcknowledgementJournal(audit.enabled() ? audit.journalSize() : 0);
    }

    @Bean
    LostReservationAudit lostReservationAudit(AcknowledgementJournal journal, RedisHotStore redis,
                                              ObjectProvider<RelayedEventsPort> relayed,
                                              ObjectProvider<PipelinePositionPort> pipeline,
                                              SettledReservationsPort settled,
                                              @Qualifier("heldReservationsPort") HeldReservationsPort redisStore,
                                              ReconcileActivityUseCase reconciliations, MeterRegistry meters,
                                              Clock clock) {
        return new LostReservationAudit(journal, redis::incarnation,
                relayed.getIfAvailable(() -> RelayedEventsPort.NONE),
                pipeline.getIfAvailable(() -> PipelinePositionPort.NONE), settled, redisStore,
                new LostReservationReports(meters), reconciliations, clock);
    }

    /** On every instance: each audits only the reservations it acknowledged itself. */
    @Bean
    PeriodicLoop lostReservationAuditLoop(LostReservationAudit audit, DurabilityAuditProperties properties) {
        return new PeriodicLoop("durability-audit", audit::run, properties.interval(), properties.enabled());
    }
}
