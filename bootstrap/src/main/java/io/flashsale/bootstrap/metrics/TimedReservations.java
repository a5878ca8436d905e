package io.flashsale.bootstrap.metrics;

import io.flashsale.application.port.in.ReserveStockCommand;
import io.flashsale.application.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@value #RESERVATIONS}{outcome}: the time each reservation attempt takes to be decided, as a histogram. The reserve
 * endpoint carries no {@code http.server.requests} observation (it cost CPU, docs/performance.md), so this timer, one
 * clock read on each side and a map look-up, is where the reserve latency is seen.
 */
public final class TimedReservations implements ReserveStockUseCase {

    public static final String RESERVATIONS = "flashsale.reservations";

    private final ReserveStockUseCase reservations;
    private final MeterRegistry registry;
    private final Map<Class<?>, Timer> timers = new ConcurrentHashMap<>();

    public TimedReservations(ReserveStockUseCase reservations, MeterRegistry registry) {
        this.reservations = reservations;
        this.registry = registry;
    }

    @Override
    public ReservationOutcome reserve(ReserveStockCommand command) {
        long started = System.nanoTime();
        ReservationOutcome outcome = reservations.reserve(command);
        timers.computeIfAbsent(outcome.getClass(), this::timer).record(System.nanoTime() - started,
                TimeUnit.NANOSECONDS);
        return outcome;
    }

    private Timer timer(Class<?> outcome) {
        return Timer.builder(RESERVATIONS)
                .description("reservation attempts by outcome, from the request to the decision")
                .tag("outcome", outcome.getSimpleName())
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }
}
