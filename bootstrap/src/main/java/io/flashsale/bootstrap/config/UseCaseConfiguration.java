package io.flashsale.bootstrap.config;

import io.flashsale.adapter.metrics.MachineCpu;
import io.flashsale.adapter.metrics.Slf4jDeductionLog;
import io.flashsale.adapter.metrics.TimedReservations;
import io.flashsale.adapter.mysql.MysqlActivityRepository;
import io.flashsale.adapter.mysql.cache.RememberedActivities;
import io.flashsale.adapter.redis.local.LocalRateLimitBuckets;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.service.BuyerCrowd;
import io.flashsale.application.order.service.CountedReservations;
import io.flashsale.application.reconciliation.service.AcknowledgementJournal;
import io.flashsale.application.reconciliation.service.JournaledReservations;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.DeductionLogPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.RateLimitBucketsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.port.out.StockReturnsPort;
import io.flashsale.application.reservation.service.KnownRefusals;
import io.flashsale.application.reservation.service.ReservationAdmission;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.application.reservation.service.RiskControl;
import io.flashsale.application.reservation.service.ShortAtHome;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.sale.port.out.SaleTermsPort;
import io.flashsale.application.sale.port.out.UnarchivedActivitiesPort;
import io.flashsale.application.sale.service.ActivityListingService;
import io.flashsale.application.sale.service.ActivityService;
import io.flashsale.application.sale.service.EvictionPolicyGuard;
import io.flashsale.application.sale.service.RecentStockFigures;
import io.flashsale.application.sale.service.SaleControlService;
import io.flashsale.application.shared.id.UuidV7IdGenerator;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import java.time.Clock;
import java.time.Duration;

/** The application services, built by hand so that the core carries no Spring annotation. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ActivityCacheProperties.class, KnownRefusalsProperties.class,
        RateLimitProperties.class, GiveWayProperties.class, DeductionLogProperties.class})
public class UseCaseConfiguration {

    /**
     * Milliseconds, the precision MySQL (DATETIME(3)) and Redis keep: a time the service answers with right after a
     * change reads the same when it is read back from either store later.
     */
    @Bean
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
    }

    @Bean
    IdGeneratorPort idGenerator(Clock clock) {
        return new UuidV7IdGenerator(clock);
    }

    /**
     * What the database said of each sale, remembered for the read path and the reservation path's look-ups; forgotten
     * on every instance when a change of the sale is announced (ADR 0066).
     */
    @Bean
    RememberedActivities rememberedActivities(MysqlActivityRepository database, ActivityCacheProperties cache,
                                              MeterRegistry meters, SaleChangesPort changes) {
        RememberedActivities remembered = new RememberedActivities(database, cache.toMemory(), meters);
        changes.subscribe(remembered);
        return remembered;
    }

    @Bean
    ActivityService activityService(MysqlActivityRepository activities, RememberedActivities remembered,
                                    StockReservationPort stock, IdGeneratorPort ids, SaleChangesPort changes,
                                    ActivityCacheProperties cache, Clock clock, EvictionPolicyGuard eviction) {
        return new ActivityService(activities, remembered, stock, ids, ActivityService.DEFAULT_LOAD_GRACE, changes,
                RecentStockFigures.remembering(stock, cache.figuresFreshFor(), clock), eviction);
    }

    /** The operator's list, from the database's replica while it is current (ADR 86). */
    @Bean
    ActivityListingService activityListingService(UnarchivedActivitiesPort activities, Clock clock) {
        return new ActivityListingService(activities, clock);
    }

    /**
     * Hears every return of units and every change of a sale (a pause, a resume, a window moved: ADR 79), from this
     * instance and the others, before the first attempt is answered.
     */
    @Bean
    KnownRefusals knownRefusals(KnownRefusalsProperties properties, StockReturnsPort returns,
                                SaleChangesPort changes, AcceptedRequestsPort acceptedRequests) {
        KnownRefusals known = properties.enabled()
                ? KnownRefusals.remembering(properties.memory(), properties.notStartedMemory(), acceptedRequests,
                        properties.rereadGap())
                : KnownRefusals.none();
        returns.subscribe(known);
        changes.subscribe(known);
        return known;
    }

    /** The operator's pause, resume and window moves (ADR 79). */
    @Bean
    SaleControlService saleControlService(MysqlActivityRepository activities, SaleTermsPort terms,
                                          HotStoreSaleTermsPort hotStore, SaleChangesPort changes, Clock clock) {
        return new SaleControlService(activities, terms, hotStore, changes, clock);
    }

    @Bean
    ReservationService reservationService(StockReservationPort stock, HeldReservationsPort held,
                                          RememberedActivities remembered,
                                          OrderLookupPort orders, IdGeneratorPort ids, Clock clock,
                                          KnownRefusals known, ReservationAdmission admission,
                                          ReservationAliasPort aliases, RiskControl risk,
                                          DeductionLogPort deductions, ShortAtHome shortAtHome) {
        return new ReservationService(stock, held, remembered, orders, ids, clock, known, admission, aliases, risk,
                deductions, shortAtHome);
    }

    /** A line per attempt the hot store answered, all of them or a share, on an asynchronous appender (ADR 0087). */
    @Bean
    DeductionLogPort deductionLog(DeductionLogProperties properties) {
        return properties.share() > 0 ? new Slf4jDeductionLog(properties.share()) : DeductionLogPort.none();
    }

    /** Rate limits (ADR 0037): buyer and client buckets shared in Redis, the sale's admission per instance. */
    @Bean
    ReservationAdmission reservationAdmission(RateLimitProperties properties,
                                              @Qualifier("sharedRateLimitBuckets") RateLimitBucketsPort shared) {
        return new ReservationAdmission(properties.toPolicy(), shared, new LocalRateLimitBuckets());
    }

    /** Whether this instance's buyers queue for its CPU: the order pipeline then gives way (ADR 65). */
    @Bean
    BuyerCrowd buyerCrowd(GiveWayProperties giveWay) {
        return new BuyerCrowd(new MachineCpu(), giveWay.busyAt(), giveWay.look(), System::nanoTime);
    }

    /**
     * What the API's reserve endpoint calls: the reservation service, timed by outcome, each acceptance journaled for
     * the audit after a Redis restart (ADR 0047) when that is on, every attempt counted for the crowd (ADR 65).
     */
    @Bean
    @Primary
    ReserveStockUseCase timedReservations(ReservationService reservations, MeterRegistry meters,
                                          AcknowledgementJournal journal, BuyerCrowd crowd) {
        ReserveStockUseCase decided = journal.keepsAnything() ? new JournaledReservations(reservations, journal)
                : reservations;
        return new TimedReservations(new CountedReservations(decided, crowd), meters);
    }
}
