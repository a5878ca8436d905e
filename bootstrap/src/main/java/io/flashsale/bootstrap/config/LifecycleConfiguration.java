package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.MysqlActivityRepository;
import io.flashsale.adapter.scheduling.LifecyclePasses;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.adapter.scheduling.SingleRunners;
import io.flashsale.application.order.port.in.CompletePendingRestoresUseCase;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.order.service.CancellationService;
import io.flashsale.application.order.service.ExpiryService;
import io.flashsale.application.order.service.PaymentService;
import io.flashsale.application.order.service.PendingRestoreService;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.port.in.RunWarmUpScheduleUseCase;
import io.flashsale.application.sale.port.in.ScheduleArchivesUseCase;
import io.flashsale.application.sale.port.in.ScheduleWarmUpsUseCase;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.sale.service.ActivityService;
import io.flashsale.application.sale.service.ArchiveService;
import io.flashsale.application.sale.service.EvictionPolicyGuard;
import io.flashsale.application.sale.service.WarmUpSchedule;
import io.flashsale.application.sale.service.WarmUpScheduler;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * The sale after its first second: payment, cancellation, the payment timeout and the repair of restores left
 * pending, the warm-up schedule and the archive of ended sales. Expiry runs on every instance (the database hands
 * each due order to one of them); the restore sweep, the warm-up and the archive schedules run on one instance at a
 * time ({@link SingleRunners}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({LifecycleProperties.class, WarmUpProperties.class, ArchiveProperties.class})
public class LifecycleConfiguration {

    @Bean
    PaymentService paymentService(OrderLookupPort orders, OrderTransitionsPort transitions, HeldReservationsPort held,
                                  ReservationTransitionsPort moves, ReservationAliasPort aliases, Clock clock) {
        return new PaymentService(orders, transitions, held, moves, aliases, clock);
    }

    @Bean
    CancellationService cancellationService(OrderLookupPort orders, OrderTransitionsPort transitions,
                                            RestoreQueuePort restoreQueue, HeldReservationsPort held,
                                            ReservationTransitionsPort moves, ReservationAliasPort aliases,
                                            Clock clock) {
        return new CancellationService(orders, transitions, restoreQueue, held, moves, aliases, clock);
    }

    @Bean
    ExpiryService expiryService(OrderTransitionsPort transitions, RestoreQueuePort restoreQueue,
                                HotStoreSettlementPort hotStore, Clock clock) {
        return new ExpiryService(transitions, restoreQueue, hotStore, clock);
    }

    @Bean
    PendingRestoreService pendingRestoreService(RestoreQueuePort restoreQueue, HotStoreSettlementPort hotStore,
                                                Clock clock) {
        return new PendingRestoreService(restoreQueue, hotStore, clock);
    }

    @Bean
    WarmUpScheduler warmUpScheduler(MysqlActivityRepository activities, StockReservationPort stock, Clock clock,
                                    WarmUpProperties warmUp, EvictionPolicyGuard eviction) {
        return new WarmUpScheduler(activities, stock, clock, warmUp.lead(), ActivityService.DEFAULT_LOAD_GRACE,
                eviction);
    }

    @Bean
    ArchiveService archiveService(MysqlActivityRepository activities, HotStoreArchivePort hotStore,
                                  SettledReservationsPort settled, Clock clock, SaleChangesPort changes) {
        return new ArchiveService(activities, hotStore, settled, clock, changes);
    }

    @Bean
    PeriodicLoop expiryLoop(ExpiryService expiry, LifecycleProperties lifecycle) {
        return new PeriodicLoop("order-expiry", LifecyclePasses.expiry(expiry, lifecycle.batchSize()),
                lifecycle.expiryInterval(), lifecycle.expiryEnabled());
    }

    @Bean
    PeriodicLoop restoreSweepLoop(CompletePendingRestoresUseCase restores, LifecycleProperties lifecycle,
                                  SingleRunners singleRunners) {
        return new PeriodicLoop("restore-sweep", singleRunners.guard("restore-sweep",
                LifecyclePasses.restoreSweep(restores, lifecycle.batchSize()), lifecycle.restoreSweepInterval()),
                lifecycle.restoreSweepInterval(), lifecycle.restoreSweepEnabled());
    }

    @Bean
    WarmUpSchedule warmUpSchedule(ScheduleWarmUpsUseCase warmUps, RebuildLedgerUseCase rebuilds) {
        return new WarmUpSchedule(warmUps, rebuilds);
    }

    @Bean
    PeriodicLoop warmUpLoop(RunWarmUpScheduleUseCase schedule, WarmUpProperties warmUp, SingleRunners singleRunners) {
        return new PeriodicLoop("warm-up-schedule", singleRunners.guard("warm-up",
                LifecyclePasses.warmUps(schedule), warmUp.interval()), warmUp.interval(),
                warmUp.scheduleEnabled());
    }

    @Bean
    PeriodicLoop archiveLoop(ScheduleArchivesUseCase archives, ArchiveProperties archive, SingleRunners singleRunners) {
        return new PeriodicLoop("archive-schedule", singleRunners.guard("archive", LifecyclePasses.archives(archives),
                archive.interval()), archive.interval(), archive.scheduleEnabled());
    }
}
