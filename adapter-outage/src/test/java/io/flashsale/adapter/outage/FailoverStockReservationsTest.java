package io.flashsale.adapter.outage;

import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.model.RebuildRetryPass;
import io.flashsale.application.reconciliation.port.in.RetryRebuildsUseCase;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlices;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The switch between Redis and the database path, and back, with real threads: which store decides in each state of
 * the breaker, that an attempt Redis failed on is never tried on the database, the bulkhead, and that a recovery
 * rebuilds only after the attempts in the database path finished and lets none in until the breaker is closed.
 */
@Timeout(30)
class FailoverStockReservationsTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    /** A sale the database path does not decide (ADR 113). */
    private static final ActivityId SALE_IN_SLICES = new ActivityId("sale-in-slices");
    private static final SkuId SKU = new SkuId("sku-1");
    private static final Instant NOW = Instant.parse("2026-12-01T11:00:00Z");

    /** Threads of the test's own: the common pool may have one thread on a small machine. */
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final AtomicBoolean redisDown = new AtomicBoolean();
    private final AtomicInteger redisCalls = new AtomicInteger();
    private final AtomicInteger databaseCalls = new AtomicInteger();
    private final AtomicInteger sliceReads = new AtomicInteger();
    private volatile CountDownLatch databaseGate = new CountDownLatch(0);
    private final List<String> events = new CopyOnWriteArrayList<>();

    private final CircuitBreaker breaker = CircuitBreaker.of("test", CircuitBreakerConfig.custom()
            .slidingWindowSize(4).minimumNumberOfCalls(2).failureRateThreshold(50)
            .automaticTransitionFromOpenToHalfOpenEnabled(false).waitDurationInOpenState(Duration.ofDays(1)).build());
    private final FailoverStockReservations failover = new FailoverStockReservations(redis(), redisRecords(),
            request -> {
                databaseCalls.incrementAndGet();
                if (request.activityId().equals(SALE_IN_SLICES)) {
                    throw new SaleInSlicesException(SALE_IN_SLICES, 3, "a reservation decided by the database");
                }
                await(databaseGate);
                events.add("database decided");
                return new ReservationOutcome.Reserved(request.toReservation());
            },
            breaker, Bulkhead.of("test", BulkheadConfig.custom().maxConcurrentCalls(2)
                    .maxWaitDuration(Duration.ZERO).build()), Duration.ofSeconds(2));
    private final HotStoreRecovery recovery = new HotStoreRecovery(failover, () -> {
        if (redisDown.get()) {
            throw new IllegalStateException("no answer");
        }
    }, id -> {
        events.add("rebuilt " + id.value());
        return RebuildOutcome.REBUILT;
    }, id -> {
        throw new AssertionError("a rebuilt sale is not reconciled");
    }, noRetries(), Duration.ofSeconds(10), threads::execute);

    @Test
    void givenRedisFailing_whenAttempts_thenDegradedUntilTheBreakerOpensAndThenTheDatabaseDecides() {
        redisDown.set(true);

        assertDegraded(attempt());
        assertDegraded(attempt());
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(databaseCalls).hasValue(0);

        assertThat(attempt()).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(databaseCalls).hasValue(1);
        assertThat(redisCalls).hasValue(2);
        assertThat(failover.findReservation(ReservationId.of(SALE, "any"))).isEmpty();
        assertThat(failover.cancelledAt(ReservationId.of(SALE, "any"))).isEmpty();
    }

    @Test
    void givenTheSlicesOfASale_whenAsked_thenRedisSaysWhileItAnswersAndOneSliceOtherwise() {
        assertThat(failover.slices(SALE)).isEqualTo(new SaleSlices(3));

        redisDown.set(true);
        assertThat(failover.slices(SALE)).as("Redis failing: the attempt goes on to the breaker")
                .isEqualTo(SaleSlices.ONE);
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);

        breaker.transitionToOpenState();
        int asked = sliceReads.get();
        assertThat(failover.slices(SALE)).as("the database path decides a sale whole").isEqualTo(SaleSlices.ONE);
        assertThat(sliceReads).as("Redis is not asked while out").hasValue(asked);
    }

    @Test
    void givenRedisUp_whenReservationsAreRead_thenRedisRecordsAnswer() {
        ReservationId id = ReservationId.of(SALE, "held");

        assertThat(failover.findReservation(id)).map(Reservation::id).contains(id);
        assertThat(failover.cancelledAt(id)).contains(NOW);
    }

    @Test
    void givenARequestTheDatabasePathAnswered_whenTheSalesAcceptedKeysAreRead_thenItsKeyMayBeHeldThere() {
        breaker.transitionToOpenState();
        assertThat(attempt("decided-by-the-database")).isInstanceOf(ReservationOutcome.Reserved.class);
        AcceptedRequestsSnapshotPort nothingInRedis = (buyer, request) -> false;
        AcceptedRequestsPort keys = failover.acceptedRequests(sale -> sale.equals(SALE)
                ? Optional.of(nothingInRedis) : Optional.empty());

        AcceptedRequestsSnapshotPort read = keys.read(SALE).orElseThrow();

        assertThat(read.mayHold(new BuyerId("buyer"), new RequestId("decided-by-the-database")))
                .as("Redis's index lacks it: a repeat must reach the failover, which replays it").isTrue();
        assertThat(read.mayHold(new BuyerId("buyer"), new RequestId("never-sent"))).isFalse();
        assertThat(read.mayHold(new BuyerId("someone-else"), new RequestId("decided-by-the-database"))).isFalse();
        assertThat(keys.read(new ActivityId("no-keys-in-redis"))).isEmpty();
    }

    @Test
    void givenTheBreakerOpen_whenASaleInSlicesIsAttempted_thenDegradedWhileTheDatabaseDecidesTheOthers() {
        breaker.transitionToOpenState();

        assertDegraded(attempt(SALE_IN_SLICES, "r-sliced"));
        assertThat(attempt(SALE, "r-whole")).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(databaseCalls).hasValue(2);
        assertThat(redisCalls).hasValue(0);
        assertThat(failover.inDatabasePath()).isZero();
    }

    @Test
    void givenTheBreakerOpen_whenMoreAttemptsThanTheBulkheadAtOnce_thenTheRestAreDegraded() throws Exception {
        breaker.transitionToOpenState();
        databaseGate = new CountDownLatch(1);
        CompletableFuture<ReservationOutcome> first = CompletableFuture.supplyAsync(this::attempt, threads);
        CompletableFuture<ReservationOutcome> second = CompletableFuture.supplyAsync(this::attempt, threads);
        waitUntil(() -> failover.inDatabasePath() == 2 && databaseCalls.get() == 2);

        assertDegraded(attempt());

        databaseGate.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(second.get(5, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
    }

    @Test
    void givenRedisDownAtStart_whenTheRecoveryProbes_thenItOpensTheBreakerWithoutABuyerMeetingA503() {
        redisDown.set(true);

        recovery.run();
        recovery.run();

        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(attempt()).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(redisCalls).hasValue(0);
    }

    @Test
    void givenRedisStillDown_whenTheRecoveryRuns_thenTheDatabaseKeepsDeciding() {
        breaker.transitionToOpenState();
        redisDown.set(true);

        recovery.run();

        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(events).isEmpty();
    }

    @Test
    void givenAnAttemptInTheDatabasePath_whenRedisIsBack_thenTheRebuildWaitsForItAndNoAttemptEntersAfterwards()
            throws Exception {
        breaker.transitionToOpenState();
        databaseGate = new CountDownLatch(1);
        CompletableFuture<ReservationOutcome> inFlight = CompletableFuture.supplyAsync(this::attempt, threads);
        waitUntil(() -> databaseCalls.get() == 1);

        CompletableFuture<Void> recovering = CompletableFuture.runAsync(recovery, threads);
        waitUntil(() -> breaker.getState() == CircuitBreaker.State.HALF_OPEN);
        // Paused: a new attempt neither enters the database path nor goes to a Redis not rebuilt yet.
        assertDegraded(attempt());
        assertThat(events).isEmpty();

        databaseGate.countDown();
        assertThat(inFlight.get(5, TimeUnit.SECONDS)).isInstanceOf(ReservationOutcome.Reserved.class);
        recovering.get(5, TimeUnit.SECONDS);

        assertThat(events).containsExactly("database decided", "rebuilt " + SALE.value());
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        int before = redisCalls.get();
        assertThat(attempt()).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(redisCalls).hasValue(before + 1);
        assertThat(databaseCalls).hasValue(1);
    }

    @Test
    void givenTheRebuildFails_whenRecovering_thenTheBreakerOpensAgainAndTheDatabaseDecides() {
        FailoverStockReservations failing = failover;
        breaker.transitionToOpenState();
        attempt();
        HotStoreRecovery broken = new HotStoreRecovery(failing, () -> { }, id -> {
            throw new IllegalStateException("Redis went away again");
        }, id -> null, noRetries(), Duration.ofSeconds(1), threads::execute);

        broken.run();

        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(attempt()).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(databaseCalls).hasValue(2);
    }

    /**
     * Defect 8: every sale the instance served is brought back before the breaker closes, so they are brought back
     * side by side. Each rebuild here waits for the other two: one after the other, the first would give up.
     */
    @Test
    void givenSeveralSalesServed_whenRedisIsBack_thenTheyAreBroughtBackSideBySideBeforeTheBreakerCloses() {
        List<ActivityId> sales = List.of(SALE, new ActivityId("sale-2"), new ActivityId("sale-3"));
        breaker.transitionToOpenState();
        sales.forEach(this::attemptIn);
        CountDownLatch allThree = new CountDownLatch(sales.size());
        AtomicInteger atOnce = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        HotStoreRecovery sideBySide = new HotStoreRecovery(failover, () -> { }, id -> {
            mostAtOnce.accumulateAndGet(atOnce.incrementAndGet(), Math::max);
            allThree.countDown();
            try {
                if (!allThree.await(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("brought back alone: " + id);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            events.add("rebuilt " + id.value());
            atOnce.decrementAndGet();
            return RebuildOutcome.REBUILT;
        }, id -> {
            throw new AssertionError("a rebuilt sale is not reconciled");
        }, noRetries(), Duration.ofSeconds(1), threads::execute);

        sideBySide.run();

        assertThat(mostAtOnce).hasValue(3);
        assertThat(events).contains("rebuilt sale-1", "rebuilt sale-2", "rebuilt sale-3");
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    /** One sale that cannot be brought back keeps the breaker open, and the others are still brought back. */
    @Test
    void givenOneOfSeveralSalesFailing_whenRedisIsBack_thenTheOthersAreBroughtBackAndTheBreakerOpensAgain() {
        ActivityId failing = new ActivityId("sale-2");
        List<ActivityId> sales = List.of(SALE, failing, new ActivityId("sale-3"));
        breaker.transitionToOpenState();
        sales.forEach(this::attemptIn);
        HotStoreRecovery recovering = new HotStoreRecovery(failover, () -> { }, id -> {
            if (id.equals(failing)) {
                throw new IllegalStateException("Redis went away again");
            }
            events.add("rebuilt " + id.value());
            return RebuildOutcome.REBUILT;
        }, id -> null, noRetries(), Duration.ofSeconds(1), threads::execute);

        recovering.run();

        assertThat(events).contains("rebuilt sale-1", "rebuilt sale-3");
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
    }

    @Test
    void givenRedisAcceptedARequest_whenTheBuyerRepeatsItWhileTheDatabaseDecides_thenTheSameReservationIsAnswered() {
        ReservationOutcome first = attempt("same-key");
        assertThat(first).isInstanceOf(ReservationOutcome.Reserved.class);
        breaker.transitionToOpenState();

        ReservationOutcome repeat = attempt("same-key");

        assertThat(repeat).isInstanceOf(ReservationOutcome.Replayed.class);
        assertThat(((ReservationOutcome.Replayed) repeat).reservation().id())
                .isEqualTo(((ReservationOutcome.Reserved) first).reservation().id());
        assertThat(databaseCalls).as("the database never made a second reservation").hasValue(0);
        assertThat(attempt("another-key")).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(databaseCalls).hasValue(1);
    }

    @Test
    void givenTheDatabaseDecidedARequest_whenTheBuyerRepeatsItAfterTheSwitchBack_thenTheSameReservationIsAnswered() {
        breaker.transitionToOpenState();
        ReservationOutcome first = attempt("during-outage");
        assertThat(first).isInstanceOf(ReservationOutcome.Reserved.class);
        breaker.transitionToClosedState();
        int redisBefore = redisCalls.get();

        ReservationOutcome repeat = attempt("during-outage");

        assertThat(repeat).isInstanceOf(ReservationOutcome.Replayed.class);
        assertThat(((ReservationOutcome.Replayed) repeat).reservation().id())
                .isEqualTo(((ReservationOutcome.Reserved) first).reservation().id());
        assertThat(redisCalls).as("Redis, whose request index lacks it, was not asked").hasValue(redisBefore);
        assertThat(attempt("fresh-key")).isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(redisCalls).hasValue(redisBefore + 1);
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    /**
     * ADR 62: a sale whose reservations are still in the pipeline is handed to the retries and the breaker closes for
     * the others; the retries ask again only while the breaker is closed (an open one rebuilds at its next recovery).
     */
    @Test
    void givenASaleAwaitingThePipeline_whenRedisIsBack_thenTheBreakerClosesAndTheSaleIsLeftToTheRetries() {
        breaker.transitionToOpenState();
        attempt();
        List<ActivityId> remembered = new CopyOnWriteArrayList<>();
        AtomicInteger retryPasses = new AtomicInteger();
        HotStoreRecovery awaiting = new HotStoreRecovery(failover, () -> { }, id -> RebuildOutcome.AWAITING_PIPELINE,
                id -> {
                    throw new AssertionError("a sale not loaded is not reconciled");
                }, new RetryRebuildsUseCase() {
                    @Override
                    public void retryLater(ActivityId activityId) {
                        remembered.add(activityId);
                    }

                    @Override
                    public RebuildRetryPass retryDue() {
                        retryPasses.incrementAndGet();
                        return new RebuildRetryPass(List.of(), List.of(), List.of());
                    }
                }, Duration.ofSeconds(1), threads::execute);

        awaiting.retryDueRebuilds();
        assertThat(retryPasses).as("no retry while the breaker is open").hasValue(0);
        awaiting.run();

        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(remembered).containsExactly(SALE);
        awaiting.retryDueRebuilds();
        assertThat(retryPasses).hasValue(1);
    }

    private static RetryRebuildsUseCase noRetries() {
        return new RetryRebuildsUseCase() {
            @Override
            public void retryLater(ActivityId activityId) {
                throw new AssertionError("no sale is left to the retries here: " + activityId);
            }

            @Override
            public RebuildRetryPass retryDue() {
                return new RebuildRetryPass(List.of(), List.of(), List.of());
            }
        };
    }

    private ReservationOutcome attempt() {
        return attempt("r" + System.nanoTime());
    }

    private void attemptIn(ActivityId sale) {
        assertThat(attempt(sale, "r" + System.nanoTime())).isInstanceOf(ReservationOutcome.Reserved.class);
    }

    private ReservationOutcome attempt(String requestId) {
        return attempt(SALE, requestId);
    }

    /** An attempt as the reservation service makes it: a fresh reservation id every time, the buyer's own key. */
    private ReservationOutcome attempt(ActivityId sale, String requestId) {
        try {
            return failover.reserve(new ReservationRequest(ReservationId.of(sale, "t" + System.nanoTime()),
                    new BuyerId("buyer"), new RequestId(requestId),
                    List.of(new ReservationLine(SKU, 1)), NOW));
        } catch (DegradedException degraded) {
            return null;
        }
    }

    private static void assertDegraded(ReservationOutcome outcome) {
        assertThat(outcome).as("503 DEGRADED").isNull();
    }

    /** Redis as the port: reserve answers Reserved or fails like a dropped connection; nothing else is called. */
    private io.flashsale.application.reservation.port.out.StockReservationPort redis() {
        return (io.flashsale.application.reservation.port.out.StockReservationPort) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[]{io.flashsale.application.reservation.port.out.StockReservationPort.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("slices")) {
                        sliceReads.incrementAndGet();
                        if (redisDown.get()) {
                            throw new IllegalStateException("connection refused");
                        }
                        return new SaleSlices(3);
                    }
                    if (!method.getName().equals("reserve")) {
                        return null;
                    }
                    redisCalls.incrementAndGet();
                    if (redisDown.get()) {
                        throw new IllegalStateException("connection refused");
                    }
                    return new ReservationOutcome.Reserved(((ReservationRequest) args[0]).toReservation());
                });
    }

    /** Redis's records: every reservation held, cancelled at NOW; read only while the breaker is CLOSED. */
    private static HeldReservationsPort redisRecords() {
        return new HeldReservationsPort() {
            @Override
            public Optional<Reservation> findReservation(ReservationId id) {
                return Optional.of(new ReservationRequest(id, new BuyerId("buyer"), new RequestId("held"),
                        List.of(new ReservationLine(SKU, 1)), NOW).toReservation());
            }

            @Override
            public Optional<Instant> cancelledAt(ReservationId id) {
                return Optional.of(NOW);
            }
        };
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition in time").isLessThan(deadline);
            Thread.sleep(5);
        }
    }
}
