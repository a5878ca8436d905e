package io.flashsale.bootstrap.config;

import io.flashsale.application.port.in.RebuildLedgerUseCase;
import io.flashsale.application.port.out.ActivityRepository;
import io.flashsale.application.port.out.HotStoreArchivePort;
import io.flashsale.application.port.out.HotStoreSettlementPort;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.SettledReservationsPort;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.application.service.ArchiveService;
import io.flashsale.application.service.CancellationService;
import io.flashsale.application.service.ExpiryService;
import io.flashsale.application.service.PaymentService;
import io.flashsale.application.service.PendingRestoreService;
import io.flashsale.application.service.WarmUpScheduler;
import io.flashsale.bootstrap.schedule.LifecyclePasses;
import io.flashsale.bootstrap.schedule.PeriodicLoop;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;

/**
 * The sale after its first second: payment, cancellation, the payment timeout and the repair of restores left
 * pending, the warm-up schedule and the archive of ended sales. Every background job runs on every instance; the
 * services make that safe.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({LifecycleProperties.class, WarmUpProperties.class, ArchiveProperties.class})
public class LifecycleConfiguration {

    @Bean
    PaymentService paymentService(OrderRepository orders, StockReservationPort stock, Clock clock) {
        return new PaymentService(orders, stock, clock);
    }

    @Bean
    CancellationService cancellationService(OrderRepository orders, StockReservationPort stock, Clock clock) {
        return new CancellationService(orders, stock, clock);
    }

    @Bean
    ExpiryService expiryService(OrderRepository orders, HotStoreSettlementPort hotStore, Clock clock) {
        return new ExpiryService(orders, hotStore, clock);
    }

    @Bean
    PendingRestoreService pendingRestoreService(OrderRepository orders, HotStoreSettlementPort hotStore,
                                                Clock clock) {
        return new PendingRestoreService(orders, hotStore, clock);
    }

    @Bean
    WarmUpScheduler warmUpScheduler(ActivityRepository activities, StockReservationPort stock, Clock clock,
                                    WarmUpProperties warmUp) {
        return new WarmUpScheduler(activities, stock, clock, warmUp.lead());
    }

    @Bean
    ArchiveService archiveService(ActivityRepository activities, HotStoreArchivePort hotStore,
                                  SettledReservationsPort settled, Clock clock) {
        return new ArchiveService(activities, hotStore, settled, clock);
    }

    @Bean
    PeriodicLoop expiryLoop(ExpiryService expiry, LifecycleProperties lifecycle) {
        return new PeriodicLoop("order-expiry", LifecyclePasses.expiry(expiry, LifecycleProperties.BATCH),
                lifecycle.expiryInterval(), lifecycle.expiryEnabled());
    }

    @Bean
    PeriodicLoop restoreSweepLoop(PendingRestoreService restores, LifecycleProperties lifecycle) {
        return new PeriodicLoop("restore-sweep", LifecyclePasses.restoreSweep(restores, LifecycleProperties.BATCH),
                lifecycle.restoreSweepInterval(), lifecycle.restoreSweepEnabled());
    }

    @Bean
    PeriodicLoop warmUpLoop(WarmUpScheduler warmUps, RebuildLedgerUseCase rebuilds, WarmUpProperties warmUp) {
        return new PeriodicLoop("warm-up-schedule", LifecyclePasses.warmUps(warmUps, rebuilds), warmUp.interval(),
                warmUp.scheduleEnabled());
    }

    @Bean
    PeriodicLoop archiveLoop(ArchiveService archives, ArchiveProperties archive) {
        return new PeriodicLoop("archive-schedule", LifecyclePasses.archives(archives), archive.interval(),
                archive.scheduleEnabled());
    }
}
