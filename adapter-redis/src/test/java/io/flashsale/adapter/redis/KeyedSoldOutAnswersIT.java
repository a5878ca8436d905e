package io.flashsale.adapter.redis;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.reservation.service.KnownRefusals;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.testsupport.TestServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyed attempts on a sold-out or ended sale answered from memory (ADR 0069), on the real Redis with two instances
 * (two {@link RedisHotStore}s, each with its own {@link KnownRefusals} and {@link ReservationService}): thousands of
 * new keys cost a handful of script calls, while a retry of an accepted key still gets its reservation back on either
 * instance, and a return of units sends keyed attempts to Redis again. Script calls are counted by the server (INFO
 * commandstats: this Redis serves this test run alone, and nothing else runs scripts while a test counts).
 */
@Timeout(120)
class KeyedSoldOutAnswersIT {

    private static final SkuId SKU = new SkuId("phone");
    private static final int UNITS = 3;
    private static final int CROWD = 2_000;
    /** At most 0.02 script calls per keyed answer: re-learning the refusal and a few attempts while the read runs. */
    private static final long MOST_SCRIPT_CALLS = 40;
    /** Long enough for a whole test: only returns of units make the instances forget. */
    private static final Duration MEMORY = Duration.ofMinutes(5);
    private static final long LATE_MS = 20;

    private final String registry = SharedRedis.newRegistry();
    private final ActivityId activityId = new ActivityId("ks-" + UUID.randomUUID().toString().substring(0, 12));
    private final List<RedisHotStore> stores = new ArrayList<>();
    private ReservationService one;
    private ReservationService other;

    @BeforeEach
    void twoInstancesAndASaleOfThreeUnits() {
        var settings = new RedisHotStore.Settings(TestServices.redis().host(), TestServices.redis().port(), null, 0,
                Duration.ofSeconds(10));
        one = instance(RedisHotStore.connect(settings, registry));
        other = instance(RedisHotStore.connect(settings, registry));
        Instant now = Instant.now();
        stores.getFirst().stockReservations().warmUp(new Activity(activityId, "keyed", now.minusSeconds(60),
                now.plusSeconds(3_600), PurchaseLimit.ONE, Duration.ofMinutes(15), List.of(ActivityItem.of(SKU.value(),
                UNITS))));
    }

    private ReservationService instance(RedisHotStore store) {
        stores.add(store);
        KnownRefusals known = KnownRefusals.remembering(MEMORY, Duration.ofMillis(100),
                arrivingLate(store.acceptedRequests()), Duration.ZERO);
        store.stockReturns().subscribe(known);
        return ReservationServices.over(store.stockReservations(), known, Clock.systemUTC());
    }

    /**
     * Reads whose answer reaches the instance {@value #LATE_MS} ms after Redis gave it, as over a slow network: returns
     * and new reservations then often happen while a read is on its way, the race the instances must not lose.
     */
    private static AcceptedRequestsPort arrivingLate(AcceptedRequestsPort port) {
        return activityId -> {
            Optional<AcceptedRequestsSnapshotPort> read = port.read(activityId);
            try {
                Thread.sleep(LATE_MS);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            }
            return read;
        };
    }

    @AfterEach
    void forget() {
        SharedRedis.forget(activityId);
        SharedRedis.connection().sync().del(registry);
        stores.forEach(RedisHotStore::close);
    }

    @Test
    void givenASoldOutSale_whenTwoThousandNewKeysAttempt_thenAFewScriptCallsAnswerThemAndAnAcceptedKeyIsReplayedOnBothInstances() {
        List<Reservation> accepted = sellOut(one);
        assertThat(attempt(one, "late", "late-key")).isEqualTo(new ReservationOutcome.SoldOut(SKU));

        long before = scriptCalls();
        for (int i = 0; i < CROWD; i++) {
            assertThat(attempt(one, "crowd-" + i, "key-" + i)).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        }
        long spent = scriptCalls() - before;

        assertThat(spent).as("script calls for %d keyed sold-out answers", CROWD).isLessThanOrEqualTo(MOST_SCRIPT_CALLS);
        assertThat(attempt(one, "buyer-1", "request-1")).isEqualTo(new ReservationOutcome.Replayed(accepted.get(1)));
        assertThat(attempt(other, "late-too", "late-key-2")).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        long beforeOther = scriptCalls();
        for (int i = 0; i < CROWD / 10; i++) {
            assertThat(attempt(other, "crowd-" + i, "key-" + i)).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        }
        assertThat(scriptCalls() - beforeOther).isLessThanOrEqualTo(MOST_SCRIPT_CALLS / 10);
        assertThat(attempt(other, "buyer-2", "request-2")).isEqualTo(new ReservationOutcome.Replayed(accepted.get(2)));
        assertThat(attempt(other, "buyer-0", "request-0")).isEqualTo(new ReservationOutcome.Replayed(accepted.get(0)));
    }

    /**
     * The service's defaults (a refusal kept 1 s, a sale's keys read at most once a second) and a crowd that is already
     * racing when the sale sells out: the answers on their way when the refusal is learnt teach it again, and must not
     * leave keyed attempts to Redis until the next read.
     */
    @Test
    void givenACrowdRacingAsTheSaleSellsOut_whenEveryAttemptCarriesANewKey_thenAtMostTwoScriptCallsInAHundredAnswers()
            throws Exception {
        RedisHotStore store = RedisHotStore.connect(new RedisHotStore.Settings(TestServices.redis().host(),
                TestServices.redis().port(), null, 0, Duration.ofSeconds(10)), registry);
        stores.add(store);
        KnownRefusals known = KnownRefusals.remembering(Duration.ofSeconds(1), Duration.ofMillis(100),
                store.acceptedRequests(), Duration.ofSeconds(1));
        store.stockReturns().subscribe(known);
        ReservationService service = ReservationServices.over(store.stockReservations(), known, Clock.systemUTC());
        int threads = 16;
        int each = 250;
        ExecutorService crowd = Executors.newFixedThreadPool(threads);
        Map<String, ReservationOutcome> outcomes = new ConcurrentHashMap<>();
        long before = scriptCalls();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                running.add(crowd.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        String buyer = "racer-" + thread + "-" + i;
                        outcomes.put(buyer, service.reserve(keyed(activityId, buyer, "key-" + buyer)));
                    }
                }));
            }
            for (Future<?> future : running) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            crowd.shutdownNow();
        }
        long spent = scriptCalls() - before;

        assertThat(outcomes.values().stream().filter(ReservationOutcome.Reserved.class::isInstance)).hasSize(UNITS);
        assertThat(outcomes.values().stream().filter(outcome -> !(outcome instanceof ReservationOutcome.Reserved)))
                .containsOnly(new ReservationOutcome.SoldOut(SKU));
        assertThat(spent).as("script calls for %d keyed attempts", threads * each)
                .isLessThanOrEqualTo(threads * each / 50);
        outcomes.forEach((buyer, outcome) -> {
            if (outcome instanceof ReservationOutcome.Reserved(var reservation)) {
                assertThat(service.reserve(keyed(activityId, buyer, "key-" + buyer)))
                        .isEqualTo(new ReservationOutcome.Replayed(reservation));
            }
        });
    }

    @Test
    void givenBothInstancesKnowTheSaleSoldOut_whenUnitsReturn_thenKeyedAttemptsReachRedisAgainAndTheNewKeyIsReplayed()
            throws InterruptedException {
        List<Reservation> accepted = sellOut(one);
        assertThat(attempt(one, "late", "late-key")).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(attempt(other, "late-too", "late-key-2")).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        long before = scriptCalls();
        assertThat(attempt(other, "early", "early-key")).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(scriptCalls()).as("answered from memory before the return").isEqualTo(before);

        assertThat(stores.getFirst().reservationRoles().transitions().release(accepted.getFirst().id(),
                   Instant.now())).isTrue();

        // The other instance hears the return over pub/sub (within 100 ms, RedisStockReturnsIT); five seconds is the
        // margin of a loaded build machine. Until then it may still answer from memory.
        Reservation retaken = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        for (int i = 0; retaken == null && System.nanoTime() < deadline; i++) {
            if (attempt(other, "after-" + i, "after-key-" + i) instanceof ReservationOutcome.Reserved(var reservation)) {
                retaken = reservation;
            } else {
                Thread.sleep(10);
            }
        }
        assertThat(retaken).as("a keyed attempt reached Redis and took the returned unit").isNotNull();
        String buyer = retaken.buyerId().value();
        String key = retaken.requestId().value();

        assertThat(attempt(one, "again", "again-key")).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(attempt(one, buyer, key)).isEqualTo(new ReservationOutcome.Replayed(retaken));
        assertThat(attempt(other, "again-too", "again-key-2")).isEqualTo(new ReservationOutcome.SoldOut(SKU));
        assertThat(attempt(other, buyer, key)).isEqualTo(new ReservationOutcome.Replayed(retaken));
    }

    @Test
    void givenAnEndedSale_whenTwoThousandNewKeysAttempt_thenAFewScriptCallsAnswerThemAndAnAcceptedKeyIsReplayed() {
        Instant opened = Instant.parse("2030-06-01T10:00:00Z");
        ActivityId ended = new ActivityId("ke-" + UUID.randomUUID().toString().substring(0, 12));
        var clock = new AtomicReference<>(opened);
        // The adapter that judges the window by the request's instant, so the test moves past the end at once.
        var stock = new RedisStockReservationAdapter(ConnectionCommands.of(SharedRedis.connection()), registry,
                id -> { }, id -> { }, false, RedisStockReservationAdapter.DEFAULT_MAX_BATCH);
        ReservationService service = ReservationServices.over(stock, KnownRefusals.remembering(MEMORY, Duration.ofMillis(100),
                new RedisAcceptedRequests(SharedRedis.connection().sync()), Duration.ZERO), movable(clock));
        try {
            stock.warmUp(new Activity(ended, "ended", opened.minusSeconds(60), opened.plusSeconds(60),
                    PurchaseLimit.ONE, Duration.ofMinutes(15), List.of(ActivityItem.of(SKU.value(), 100))));
            var command = new ReserveStockCommand(ended, new BuyerId("early"), new RequestId("early-key"),
                    List.of(new ReservationLine(SKU, 1)));
            var reserved = (ReservationOutcome.Reserved) service.reserve(command);
            clock.set(opened.plusSeconds(120));
            var endedAnswer = new ReservationOutcome.Ended(opened.plusSeconds(60));
            assertThat(service.reserve(keyed(ended, "late", "late-key"))).isEqualTo(endedAnswer);

            long before = scriptCalls();
            for (int i = 0; i < CROWD; i++) {
                assertThat(service.reserve(keyed(ended, "crowd-" + i, "key-" + i))).isEqualTo(endedAnswer);
            }

            assertThat(scriptCalls() - before).isLessThanOrEqualTo(MOST_SCRIPT_CALLS);
            assertThat(service.reserve(command)).isEqualTo(new ReservationOutcome.Replayed(reserved.reservation()));
        } finally {
            SharedRedis.forget(ended);
        }
    }

    /**
     * The race the reads must survive: a crowd on both instances takes the last units while some are given back and
     * taken again, so instances learn the sell-out, read the accepted keys and hear returns all at once. Once every
     * notice is heard, each accepted key must be replayed on both instances, never answered "sold out".
     */
    @Test
    void givenACrowdOnBothInstancesRacingForUnitsThatComeBack_whenEveryAcceptedKeyRetries_thenEachIsReplayedOnBoth()
            throws Exception {
        for (int round = 0; round < 5; round++) {
            ActivityId sale = new ActivityId("kr-" + UUID.randomUUID().toString().substring(0, 12));
            try {
                stores.getFirst().stockReservations().warmUp(new Activity(sale, "race", Instant.now().minusSeconds(60),
                        Instant.now().plusSeconds(3_600), PurchaseLimit.ONE, Duration.ofMinutes(15),
                        List.of(ActivityItem.of(SKU.value(), 20))));
                Map<String, Reservation> accepted = crowd(sale, round);
                // Every return is heard by both instances within 100 ms (RedisStockReturnsIT); a second of margin.
                Thread.sleep(1_000);

                for (Reservation reservation : accepted.values()) {
                    for (ReservationService instance : List.of(one, other)) {
                        ReservationOutcome retry = instance.reserve(keyed(sale, reservation.buyerId().value(),
                                reservation.requestId().value()));
                        assertThat(retry).as("round %d, retry of %s", round, reservation.requestId())
                                .isInstanceOfSatisfying(ReservationOutcome.Replayed.class,
                                        replayed -> assertThat(replayed.reservation().id()).isEqualTo(reservation.id()));
                    }
                }
            } finally {
                SharedRedis.forget(sale);
            }
        }
    }

    /** Eight buyers' threads, alternating instances, and one that gives back a few accepted units; then sold out. */
    private Map<String, Reservation> crowd(ActivityId sale, int round) throws Exception {
        Map<String, Reservation> accepted = new ConcurrentHashMap<>();
        var given = new ConcurrentLinkedQueue<Reservation>();
        ExecutorService threads = Executors.newFixedThreadPool(9);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                running.add(threads.submit(() -> {
                    for (int i = 0; i < 60; i++) {
                        String buyer = "r" + round + "-t" + thread + "-" + i;
                        if ((thread % 2 == 0 ? one : other).reserve(keyed(sale, buyer, "key-" + buyer))
                                instanceof ReservationOutcome.Reserved(var reservation)) {
                            accepted.put(buyer, reservation);
                        }
                    }
                }));
            }
            running.add(threads.submit(() -> {
                var stock = stores.getFirst().reservationRoles().transitions();
                while (given.size() < 5 && running.stream().limit(8).anyMatch(future -> !future.isDone())) {
                    accepted.values().stream().filter(r -> !given.contains(r)).findAny().ifPresent(reservation -> {
                        if (stock.release(reservation.id(), Instant.now())) {
                            given.add(reservation);
                        }
                    });
                    Thread.onSpinWait();
                }
            }));
            for (Future<?> future : running) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }
        for (int i = 0; ; i++) {
            String buyer = "r" + round + "-rest-" + i;
            ReservationOutcome outcome = one.reserve(keyed(sale, buyer, "key-" + buyer));
            if (!(outcome instanceof ReservationOutcome.Reserved(var reservation))) {
                assertThat(outcome).isEqualTo(new ReservationOutcome.SoldOut(SKU));
                break;
            }
            accepted.put(buyer, reservation);
        }
        assertThat(accepted).hasSize(20 + given.size());
        return accepted;
    }

    /** Three keyed reservations, one unit each: buyer-i with request-i. */
    private List<Reservation> sellOut(ReservationService service) {
        List<Reservation> accepted = new ArrayList<>();
        for (int i = 0; i < UNITS; i++) {
            var outcome = (ReservationOutcome.Reserved) attempt(service, "buyer-" + i, "request-" + i);
            accepted.add(outcome.reservation());
        }
        return accepted;
    }

    private ReservationOutcome attempt(ReservationService service, String buyer, String key) {
        return service.reserve(keyed(activityId, buyer, key));
    }

    private static ReserveStockCommand keyed(ActivityId sale, String buyer, String key) {
        return new ReserveStockCommand(sale, new BuyerId(buyer), new RequestId(key), List.of(new ReservationLine(SKU, 1)));
    }

    private static Clock movable(AtomicReference<Instant> now) {
        return new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now.get();
            }
        };
    }

    /** EVALSHA and EVAL calls the server has answered since it started. */
    private static long scriptCalls() {
        long calls = 0;
        for (String line : SharedRedis.connection().sync().info("commandstats").lines().toList()) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String counts = line.substring(line.indexOf(':') + 1);
                calls += Long.parseLong(counts.substring("calls=".length(), counts.indexOf(',')));
            }
        }
        return calls;
    }
}
