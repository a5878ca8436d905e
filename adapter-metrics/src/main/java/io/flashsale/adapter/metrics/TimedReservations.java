package io.flashsale.adapter.metrics;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.AdmissionLimit;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationOutcome.Blocked;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@value #REFUSALS}{limit=buyer|client|sale}: attempts a rate limit refused, registered at zero so an alert has a
 * series before the first refusal.
 * <p>
 * {@value #BLOCKED}{by=buyer|address|device|shared-device}: attempts the risk control refused (ADR 0081), registered
 * at zero alike.
 * <p>
 * {@value #RESERVATIONS}{outcome}: the time each reservation attempt takes to be decided, as a histogram. The reserve
 * endpoint carries no {@code http.server.requests} observation (it cost CPU, docs/performance.md), so this timer, one
 * clock read on each side and a map look-up, is where the reserve latency is seen. An attempt the use case throws on
 * (answered 5xx: the stores out of reach, a lock too busy) is timed as {@value #FAILED}, registered at start: the
 * reserve endpoint's 5xx, which no {@code http.server.requests} counts.
 */
public final class TimedReservations implements ReserveStockUseCase {

    public static final String RESERVATIONS = "flashsale.reservations";
    public static final String REFUSALS = "flashsale.ratelimit.refusals";
    public static final String FAILED = "Failed";
    public static final String BLOCKED = "flashsale.risk.blocked";

    private final ReserveStockUseCase reservations;
    private final MeterRegistry registry;
    private final Map<Class<?>, Timer> timers = new ConcurrentHashMap<>();
    private final Map<AdmissionLimit, Counter> refusals = new java.util.EnumMap<>(AdmissionLimit.class);
    private final Timer failed;
    private final Map<Blocked.Refusal, Counter> blocked = new java.util.EnumMap<>(Blocked.Refusal.class);

    public TimedReservations(ReserveStockUseCase reservations, MeterRegistry registry) {
        this.reservations = reservations;
        this.registry = registry;
        for (AdmissionLimit limit : AdmissionLimit.values()) {
            refusals.put(limit, Counter.builder(REFUSALS)
                    .description("reservation attempts refused by a rate limit before the hot store was asked")
                    .tag("limit", limit.label())
                    .register(registry));
        }
        failed = timer(FAILED);
        for (Blocked.Refusal refusal : Blocked.Refusal.values()) {
            blocked.put(refusal, Counter.builder(BLOCKED)
                    .description("reservation attempts the risk control refused before the hot store was asked")
                    .tag("by", refusal.label())
                    .register(registry));
        }
    }

    @Override
    public ReservationOutcome reserve(ReserveStockCommand command) {
        long started = System.nanoTime();
        ReservationOutcome outcome;
        try {
            outcome = reservations.reserve(command);
        } catch (RuntimeException e) {
            failed.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            throw e;
        }
        timers.computeIfAbsent(outcome.getClass(), type -> timer(type.getSimpleName()))
                .record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        if (outcome instanceof ReservationOutcome.RateLimited limited) {
            refusals.get(limited.limit()).increment();
        } else if (outcome instanceof Blocked refused) {
            blocked.get(refused.refusal()).increment();
        }
        return outcome;
    }

    private Timer timer(String outcome) {
        return Timer.builder(RESERVATIONS)
                .description("reservation attempts by outcome, from the request to the decision")
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}
