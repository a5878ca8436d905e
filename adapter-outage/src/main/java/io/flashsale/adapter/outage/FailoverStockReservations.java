package io.flashsale.adapter.outage;

import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.reservation.port.in.ReserveOnDatabaseUseCase;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.slice.SaleSlices;
import io.flashsale.domain.stock.SkuStock;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The hot store behind a circuit breaker. While the breaker is CLOSED every attempt goes to Redis and its failures
 * count; an attempt Redis failed on is answered 503 {@code DEGRADED} (it may or may not have been taken there, so it
 * is never tried again on the database). While it is not CLOSED the database decides, by the application's rules
 * ({@link ReserveOnDatabaseUseCase}), at most {@code bulkhead} attempts at once, the rest 503 {@code DEGRADED}; a
 * sale in slices is answered 503 {@code DEGRADED} until the hot store is back (ADR 113).
 * <p>
 * The switch back is {@link HotStoreRecovery}'s: it {@link #pause()}s the database path, waits for the attempts in it
 * to finish, rebuilds the ledgers from the database and closes the breaker before it {@link #resume()}s. An attempt
 * enters the database path only after it counted itself in and saw neither a pause nor a CLOSED breaker, so no attempt
 * is decided by the database once the rebuild has read it (which would let Redis sell that unit again).
 * <p>
 * A request id repeated across the switch gets the reservation it got before ({@link RecentAnswers}, per instance): the
 * database path first asks what Redis answered for it lately (accepted just before the outage, that reservation is
 * still in Redis's outbox, not in MySQL), and Redis, while the database path's answers are remembered, is asked only
 * after them (its request index lacks them unless the sale was rebuilt). A repeat sent to another instance than the
 * one that answered is not covered: docs/reliability.md, defect 5. For the same reason the keys a sold-out sale's
 * attempts are judged by from memory ({@link #acceptedRequests}) include the database path's answers (ADR 69).
 * <p>
 * Reads the application makes of the hot store while it is out (the reservation a payment or a cancellation looks
 * for) answer "the hot store holds nothing": the database of record knows every order, those of the database path
 * included. So a payment here can pay an order whose reservation Redis released to the buyer's cancel; the paid order
 * stands and reconciliation puts its units back under sold in Redis (ADR 32, amended). Where such a read would end
 * in "not found", {@link #requireReadable()} answers 503 {@code DEGRADED} instead (ADR 116): a reservation Redis
 * accepted may not be in the database yet. A reservation's moves ({@link io.flashsale.application.reservation.port.out.ReservationTransitionsPort})
 * do not pass here: they go to Redis, whose failures the order pipeline's own tolerance handles.
 */
public final class FailoverStockReservations implements StockReservationPort, HeldReservationsPort {

    /**
     * Redis's answers are needed for those accepted but not yet in MySQL when an outage begins: a few seconds of the
     * pipeline's lag. The database path's until a repeat after the switch back: minutes. At most this many a
     * generation (two generations, about 200 bytes each).
     */
    private static final Duration REDIS_MEMORY = Duration.ofSeconds(10);
    private static final Duration DATABASE_MEMORY = Duration.ofMinutes(5);
    private static final int MEMORY_CAPACITY = 50_000;

    private final StockReservationPort redis;
    private final HeldReservationsPort redisRecords;
    private final ReserveOnDatabaseUseCase database;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    private final Duration retryAfter;
    private final AtomicInteger inDatabasePath = new AtomicInteger();
    private final RecentAnswers redisAnswers;
    private final RecentAnswers databaseAnswers;
    private final Set<ActivityId> activities = ConcurrentHashMap.newKeySet();
    private volatile boolean paused;

    /** @param redisRecords Redis's reservation records, read while the breaker is CLOSED */
    public FailoverStockReservations(StockReservationPort redis, HeldReservationsPort redisRecords,
                                     ReserveOnDatabaseUseCase database, CircuitBreaker breaker, Bulkhead bulkhead,
                                     Duration retryAfter) {
        this.redis = redis;
        this.redisRecords = redisRecords;
        this.database = database;
        this.breaker = breaker;
        this.bulkhead = bulkhead;
        this.retryAfter = retryAfter;
        this.redisAnswers = new RecentAnswers(REDIS_MEMORY, MEMORY_CAPACITY);
        this.databaseAnswers = new RecentAnswers(DATABASE_MEMORY, MEMORY_CAPACITY);
    }


    @Override
    public ReservationOutcome reserve(ReservationRequest request) {
        activities.add(request.activityId());
        if (breaker.getState() == CircuitBreaker.State.CLOSED) {
            return onRedis(request);
        }
        inDatabasePath.incrementAndGet();
        try {
            if (paused) {
                throw new DegradedException("the sale's stock is being moved back to the hot store", retryAfter);
            }
            if (breaker.getState() == CircuitBreaker.State.CLOSED) {
                return onRedis(request);
            }
            if (!bulkhead.tryAcquirePermission()) {
                throw new DegradedException("too many buyers for the degraded mode right now", retryAfter);
            }
            try {
                Optional<Reservation> onRedis = redisAnswers.recall(request);
                if (onRedis.isPresent()) {
                    // Redis accepted this request moments before it went out; that reservation stands.
                    return new ReservationOutcome.Replayed(onRedis.get());
                }
                ReservationOutcome outcome;
                try {
                    outcome = database.reserve(request);
                } catch (SaleInSlicesException onlyItsSlicesSellIt) {
                    throw new DegradedException("a sale in slices waits for its hot store", retryAfter);
                }
                remember(databaseAnswers, outcome);
                return outcome;
            } finally {
                bulkhead.onComplete();
            }
        } finally {
            inDatabasePath.decrementAndGet();
        }
    }

    /**
     * The hot store's accepted request keys, and the requests the database path answered lately, which its index
     * lacks: a repeat of one of those must reach {@link #reserve}, which replays it, not be answered "sold out".
     */
    public AcceptedRequestsPort acceptedRequests(AcceptedRequestsPort hotStore) {
        return activityId -> hotStore.read(activityId).map(keys -> (AcceptedRequestsSnapshotPort) (buyerId, requestId) ->
                keys.mayHold(buyerId, requestId) || databaseAnswers.holds(activityId, buyerId, requestId));
    }

    private ReservationOutcome onRedis(ReservationRequest request) {
        if (!databaseAnswers.isEmpty()) {
            Optional<Reservation> onDatabase = databaseAnswers.recall(request);
            if (onDatabase.isPresent()) {
                return new ReservationOutcome.Replayed(onDatabase.get());
            }
        }
        if (!breaker.tryAcquirePermission()) {
            throw new DegradedException("the hot store is switching", retryAfter);
        }
        long started = System.nanoTime();
        try {
            ReservationOutcome outcome = redis.reserve(request);
            breaker.onSuccess(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            remember(redisAnswers, outcome);
            return outcome;
        } catch (IllegalArgumentException badInput) {
            // Bad input (InvalidValueException is one) says nothing about the health of Redis.
            breaker.releasePermission();
            throw badInput;
        } catch (RuntimeException failed) {
            breaker.onError(System.nanoTime() - started, TimeUnit.NANOSECONDS, failed);
            throw new DegradedException("the hot store did not answer", retryAfter);
        }
    }

    private static void remember(RecentAnswers answers, ReservationOutcome outcome) {
        switch (outcome) {
            case ReservationOutcome.Reserved reserved -> answers.remember(reserved.reservation());
            case ReservationOutcome.Replayed replayed -> answers.remember(replayed.reservation());
            default -> {
                // A refusal reserved nothing: a repeat may be decided again.
            }
        }
    }

    /** Stops new attempts entering the database path; they are answered 503 DEGRADED until {@link #resume()}. */
    void pause() {
        paused = true;
    }

    void resume() {
        paused = false;
    }

    /** Attempts in the database path now. */
    int inDatabasePath() {
        return inDatabasePath.get();
    }

    /** The sales attempts were made for since the start: the ledgers a recovery rebuilds. */
    Set<ActivityId> activities() {
        return Set.copyOf(activities);
    }

    void forget(ActivityId activityId) {
        activities.remove(activityId);
    }

    CircuitBreaker breaker() {
        return breaker;
    }

    private boolean hotStoreOut() {
        return breaker.getState() != CircuitBreaker.State.CLOSED;
    }

    @Override
    public List<SkuStock> warmUp(Activity activity) {
        return redis.warmUp(activity);
    }

    @Override
    public Optional<Instant> cancelledAt(ReservationId reservationId) {
        return hotStoreOut() ? Optional.empty() : redisRecords.cancelledAt(reservationId);
    }

    @Override
    public Optional<Reservation> findReservation(ReservationId reservationId) {
        return hotStoreOut() ? Optional.empty() : redisRecords.findReservation(reservationId);
    }

    /** While the breaker is not CLOSED Redis is not asked, so a reservation it accepted cannot be ruled out. */
    @Override
    public void requireReadable() {
        if (hotStoreOut()) {
            throw new DegradedException("the hot store is out; a reservation the database has not placed yet cannot "
                    + "be read now", retryAfter);
        }
    }

    /**
     * The hot store's count, or one slice when it is out or cannot say: the database path decides a sale whole, and an
     * id made for one slice that does reach a sale in slices is refused there as not ready, with nothing deducted.
     */
    @Override
    public SaleSlices slices(ActivityId activityId) {
        if (hotStoreOut()) {
            return SaleSlices.ONE;
        }
        try {
            return redis.slices(activityId);
        } catch (RuntimeException unanswered) {
            // The attempt itself goes to the breaker next, which counts Redis's failure once.
            return SaleSlices.ONE;
        }
    }

    @Override
    public Optional<List<SkuStock>> stock(ActivityId activityId) {
        if (hotStoreOut()) {
            throw new DegradedException("the hot store is out; its figures cannot be read", retryAfter);
        }
        return redis.stock(activityId);
    }

    @Override
    public Map<SkuId, Long> holdings(ActivityId activityId, BuyerId buyerId) {
        if (hotStoreOut()) {
            throw new DegradedException("the hot store is out; its figures cannot be read", retryAfter);
        }
        return redis.holdings(activityId, buyerId);
    }
}
