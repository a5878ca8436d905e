package io.flashsale.bootstrap.config;

import io.flashsale.adapter.redis.RedisHotStore;
import io.flashsale.adapter.redis.RedisStockReservationAdapter;
import io.flashsale.application.blocklist.port.out.BlocklistChangesPort;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OutboxNewsPort;
import io.flashsale.application.order.port.out.ReservationOutboxPort;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.port.out.StockReturnsPort;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Redis adapters, all on one shared connection and one outbox registry: a warm-up, a rebuild and an archive
 * change the set of activities the relays read.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({RedisConnectionProperties.class, OutboxRegistryProperties.class,
        SaleWindowProperties.class, ReplicaAcknowledgementProperties.class})
public class RedisConfiguration {

    @Bean(destroyMethod = "close")
    RedisHotStore redisHotStore(RedisConnectionProperties properties, OutboxRegistryProperties registry,
                                SaleWindowProperties window) {
        return RedisHotStore.connect(properties.toSettings(), registry.outboxRegistry(),
                window.clock() == SaleWindowProperties.WindowClock.REDIS);
    }

    /**
     * The reservation adapter's roles (ADR 0101); the hot path answered once the master decided, or once WAIT saw the
     * writes on the replicas asked for (ADR 0097).
     */
    @Bean
    RedisHotStore.ReservationRoles reservationRoles(RedisHotStore redis,
                                                    ReplicaAcknowledgementProperties acknowledgement,
                                                    MeterRegistry meters) {
        RedisHotStore.ReservationRoles roles = redis.reservationRoles(RedisStockReservationAdapter.DEFAULT_MAX_BATCH,
                acknowledgement.toAcknowledgement());
        FunctionCounter.builder(REPLICA_ACKNOWLEDGEMENTS, redis, hot -> hot.replicaAcknowledgements().confirmedCalls())
                .tag("result", "confirmed").description("reserve calls whose WAIT saw the replicas asked for")
                .register(meters);
        FunctionCounter.builder(REPLICA_ACKNOWLEDGEMENTS, redis, hot -> hot.replicaAcknowledgements().shortCalls())
                .tag("result", "short").description("reserve calls answered after WAIT's timeout with fewer replicas")
                .register(meters);
        FunctionCounter.builder(RESERVE_CALLS, redis, hot -> hot.reserveCalls().calls())
                .description("reserve script calls sent (ADR 0068: a call carries the attempts queued meanwhile)")
                .register(meters);
        FunctionCounter.builder(RESERVE_CALL_ATTEMPTS, redis, hot -> hot.reserveCalls().attempts())
                .description("reserve attempts those calls carried; per call, the size that sets Redis's cost")
                .register(meters);
        return roles;
    }

    static final String RESERVE_CALLS = "flashsale.redis.reserve.calls";
    static final String RESERVE_CALL_ATTEMPTS = "flashsale.redis.reserve.attempts";

    /** Redis's hot path; the failover router wraps it (OutageConfiguration). */
    @Bean
    StockReservationPort stockReservationPort(RedisHotStore.ReservationRoles roles) {
        return roles.hotPath();
    }

    /** Redis's reservation records; the failover router answers "none" for them while Redis is out. */
    @Bean
    HeldReservationsPort heldReservationsPort(RedisHotStore.ReservationRoles roles) {
        return roles.held();
    }

    @Bean
    ReservationTransitionsPort reservationTransitionsPort(RedisHotStore.ReservationRoles roles) {
        return roles.transitions();
    }

    static final String REPLICA_ACKNOWLEDGEMENTS = "flashsale.redis.replica.acknowledgements";

    /** The buyer and client rate-limit buckets every instance shares (ADR 0037). */
    @Bean
    RateLimitBucketsPort sharedRateLimitBuckets(RedisHotStore redis, RateLimitProperties rateLimits) {
        return redis.rateLimitBuckets(rateLimits.keyPrefix(), rateLimits.storeTimeout());
    }

    /** Each sale's filter of accepted request keys, read when a sale sells out or ends (ADR 0069). */
    @Bean
    AcceptedRequestsPort acceptedRequestsPort(RedisHotStore redis) {
        return redis.acceptedRequests();
    }

    @Bean
    StockReturnsPort stockReturnsPort(RedisHotStore redis) {
        return redis.stockReturns();
    }

    @Bean
    SaleChangesPort saleChangesPort(RedisHotStore redis) {
        return redis.saleChanges();
    }

    /** Changes of the risk control's blocklist, on the same pub/sub connection (ADR 0081). */
    @Bean
    BlocklistChangesPort blocklistChangesPort(RedisHotStore redis) {
        return redis.blocklistChanges();
    }

    @Bean
    OutboxNewsPort outboxNewsPort(RedisHotStore redis) {
        return redis.outboxNews();
    }

    @Bean
    ReservationOutboxPort reservationOutboxPort(RedisHotStore redis) {
        return redis.outbox();
    }

    @Bean
    HotStoreArchivePort hotStoreArchivePort(RedisHotStore redis) {
        return redis.archive();
    }

    /** Sales' pause and window, which the reserve script decides by (ADR 79). */
    @Bean
    HotStoreSaleTermsPort hotStoreSaleTermsPort(RedisHotStore redis) {
        return redis.saleTerms();
    }

    @Bean
    HotStoreSettlementPort hotStoreSettlementPort(RedisHotStore redis) {
        return redis.settlement();
    }

    @Bean
    RedisHotStore.ReconciliationRoles hotStoreReconciliationRoles(RedisHotStore redis,
                                                                  ReconciliationProperties reconciliation) {
        return redis.reconciliationRoles(reconciliation.readPace());
    }

    @Bean
    HotStoreReconciliationPort hotStoreReconciliationPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.reconciliation();
    }

    @Bean
    SliceReconciliationPort sliceReconciliationPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.sliceReconciliation();
    }

    @Bean
    SliceAdjustmentPort sliceAdjustmentPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.sliceAdjustments();
    }

    @Bean
    SliceRebuildPort sliceRebuildPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.sliceRebuild();
    }

    @Bean
    HotStoreRebuildPort hotStoreRebuildPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.rebuild();
    }

    @Bean
    HotStoreAdjustmentPort hotStoreAdjustmentPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.adjustments();
    }

    @Bean
    RelayedEventsPort relayedEventsPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.relayedEvents();
    }

    @Bean
    RecoveryMarkPort recoveryMarkPort(RedisHotStore.ReconciliationRoles roles) {
        return roles.recoveryMarks();
    }
}
