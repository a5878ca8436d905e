package io.flashsale.bootstrap.config;

import io.flashsale.adapter.mysql.cache.RememberedActivities;
import io.flashsale.adapter.outage.FailoverStockReservations;
import io.flashsale.adapter.outage.HotStoreRecovery;
import io.flashsale.adapter.outage.OutageTolerantSettlement;
import io.flashsale.adapter.outage.OutageWorkers;
import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.redis.local.LocalRateLimitBuckets;
import io.flashsale.adapter.scheduling.Pass;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.reconciliation.port.in.RebuildLedgerUseCase;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.service.RebuildRetryService;
import io.flashsale.application.reservation.port.in.ReserveOnDatabaseUseCase;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.FallbackReservationPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.service.DatabaseReservations;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.time.Clock;
import java.time.Duration;

/**
 * Redis down, the sale goes on (ADR 0039): the hot store port every service uses is the Redis adapter behind
 * adapter-outage's circuit breaker, with the database path as its fallback, and a loop that brings Redis back. The
 * rules of the database path are the application's ({@link DatabaseReservations}); the switching between stores is
 * adapter-outage's (ADR 0090); here they are only put together and given their figures.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OutageProperties.class)
@ConditionalOnProperty(name = "flashsale.outage.enabled", havingValue = "true", matchIfMissing = true)
public class OutageConfiguration {

    public static final String BREAKER_STATE = "flashsale.hotstore.breaker.state";
    private static final Logger LOG = LoggerFactory.getLogger(OutageConfiguration.class);

    @Bean
    CircuitBreaker hotStoreBreaker(OutageProperties outage, MeterRegistry meters) {
        CircuitBreaker breaker = CircuitBreaker.of("hot-store", CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(outage.slidingWindow())
                .minimumNumberOfCalls(Math.min(outage.minimumCalls(), outage.slidingWindow()))
                .failureRateThreshold(outage.failureRateThreshold())
                // Only the recovery loop leaves OPEN, and only after the ledgers are rebuilt: no wait lets calls in.
                .automaticTransitionFromOpenToHalfOpenEnabled(false)
                .waitDurationInOpenState(Duration.ofDays(365))
                .build());
        Gauge.builder(BREAKER_STATE, breaker, b -> switch (b.getState()) {
                    case CLOSED -> 0;
                    case OPEN, FORCED_OPEN -> 1;
                    case HALF_OPEN -> 2;
                    default -> 3;
                })
                .description("the hot store's circuit breaker: 0 closed (Redis decides), 1 open (the database "
                        + "decides), 2 half-open (Redis is back, its ledgers are being rebuilt)")
                .register(meters);
        // Which store decides, and since when: the first thing to know when a request id got two reservations.
        // Which store decides since when (OPEN, HALF_OPEN: the database; CLOSED: Redis), whatever moved the breaker.
        breaker.getEventPublisher().onStateTransition(event -> LOG.warn("hot store breaker {}",
                event.getStateTransition()));
        return breaker;
    }

    @Bean
    Bulkhead databasePathBulkhead(OutageProperties outage) {
        return Bulkhead.of("database-path", BulkheadConfig.custom()
                .maxConcurrentCalls(outage.databaseConcurrency())
                .maxWaitDuration(Duration.ZERO)
                .build());
    }

    /**
     * The buyer's bucket, which the reserve script takes while Redis decides, is this instance's own while the
     * database does (ADR 0081): no shared store is asked, and the database, the one store still standing, is not.
     */
    @Bean
    ReserveOnDatabaseUseCase databaseReservations(FallbackReservationPort database, RememberedActivities remembered) {
        return new DatabaseReservations(database, remembered, new LocalRateLimitBuckets());
    }

    /** The port every service is given; the Redis adapter's own bean is only what it wraps. */
    @Bean
    @Primary
    FailoverStockReservations failoverStockReservations(
            @Qualifier("stockReservationPort") StockReservationPort redis,
            @Qualifier("heldReservationsPort") HeldReservationsPort redisRecords, ReserveOnDatabaseUseCase database,
            CircuitBreaker hotStoreBreaker, Bulkhead databasePathBulkhead, OutageProperties outage) {
        return new FailoverStockReservations(redis, redisRecords, database, hotStoreBreaker, databasePathBulkhead,
                outage.retryAfter());
    }

    /** What keyed attempts on a sold-out sale are judged by: Redis's accepted keys and the database path's (ADR 69). */
    @Bean
    @Primary
    AcceptedRequestsPort failoverAcceptedRequests(FailoverStockReservations failover,
                                                  @Qualifier("acceptedRequestsPort") AcceptedRequestsPort redis) {
        return failover.acceptedRequests(redis);
    }

    /** The order pipeline's view of Redis: while the breaker is open, orders are placed without telling Redis. */
    @Bean
    @Primary
    OutageTolerantSettlement outageTolerantSettlement(
            @Qualifier("hotStoreSettlementPort") HotStoreSettlementPort redis, CircuitBreaker hotStoreBreaker) {
        return new OutageTolerantSettlement(redis, hotStoreBreaker);
    }

    /**
     * The sales a recovery left not ready, asked again within seconds (ADR 62). On every instance, as the recovery:
     * the set is this instance's, and the rebuild itself runs on one instance at a time for a sale.
     */
    @Bean
    RebuildRetryService rebuildRetries(RebuildLedgerUseCase rebuilds, ReconcileActivityUseCase reconciliations,
                                       Clock clock, OutageProperties outage,
                                       @Qualifier("rebuildRetryWorkers") OutageWorkers workers) {
        return new RebuildRetryService(rebuilds, reconciliations, clock, outage.rebuildRetryFirst(),
                outage.rebuildRetryLongest(), outage.rebuildRetryFor(), workers::execute);
    }

    /** Shut down with the context ({@link AutoCloseable}): a retry cut short is the next recovery's. */
    @Bean
    OutageWorkers rebuildRetryWorkers(OutageProperties outage) {
        return new OutageWorkers("rebuild-retry", outage.rebuildRetryWorkers());
    }

    /** Shut down with the context: a recovery cut short leaves the breaker open, for the next one. */
    @Bean
    OutageWorkers recoveryWorkers(OutageProperties outage) {
        return new OutageWorkers("hot-store-recovery-worker", outage.recoveryWorkers());
    }

    @Bean
    HotStoreRecovery hotStoreRecovery(FailoverStockReservations failover, RedisHotStore redis,
                                      RebuildLedgerUseCase rebuilds, ReconcileActivityUseCase reconciliations,
                                      RebuildRetryService rebuildRetries, OutageProperties outage,
                                      @Qualifier("recoveryWorkers") OutageWorkers workers) {
        return new HotStoreRecovery(failover, redis::ping, rebuilds, reconciliations, rebuildRetries,
                outage.drainTimeout(), workers::execute);
    }

    /** On every instance: each has its own breaker, and a rebuild another instance did already is not done twice. */
    @Bean
    PeriodicLoop hotStoreRecoveryLoop(HotStoreRecovery recovery, OutageProperties outage) {
        return new PeriodicLoop("hot-store-recovery", once(recovery), outage.probeInterval(), true);
    }

    /** Polls at the first wait: each sale's own backoff decides when it is asked again. */
    @Bean
    PeriodicLoop hotStoreRebuildRetryLoop(HotStoreRecovery recovery, OutageProperties outage) {
        return new PeriodicLoop("hot-store-rebuild-retries", once(recovery::retryDueRebuilds),
                outage.rebuildRetryFirst(), true);
    }

    /** A step that does all it can each time: the loop waits its interval before the next, never runs it at once. */
    private static Pass once(Runnable step) {
        return () -> {
            step.run();
            return false;
        };
    }
}
