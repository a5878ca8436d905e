package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.PausePort;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongSupplier;

/**
 * Holds a batch of reservations back from becoming orders while this instance's buyers queue for its CPU ({@link
 * BuyerCrowd}, ADR 65): the outbox and the topic keep the burst, the orders land when the crowd thins. Never longer
 * than {@code maxWait}, counted twice: from the batch's oldest reservation (so a backlog cannot wait batch after
 * batch) and from the start of this hold (monotonic, so a moved service clock cannot stretch it). An interrupt ends
 * the hold at once.
 */
public final class OrdersGiveWay {

    private final BuyerCrowd buyers;
    private final Duration maxWait;
    private final Duration look;
    private final InstantSource clock;
    private final LongSupplier nanoTime;
    private final PausePort pause;

    /**
     * @param maxWait the longest any reservation waits for its order because of the crowd; zero never holds
     * @param look    how often a held batch looks at the crowd again (the crowd works its answer out at most as often)
     */
    public OrdersGiveWay(BuyerCrowd buyers, Duration maxWait, Duration look, InstantSource clock, LongSupplier nanoTime,
                         PausePort pause) {
        if (maxWait.isNegative() || look.isNegative() || look.isZero()) {
            throw new IllegalArgumentException("maxWait must not be negative and look must be positive");
        }
        this.buyers = buyers;
        this.maxWait = maxWait;
        this.look = look;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.pause = pause;
    }

    public static OrdersGiveWay never() {
        return new OrdersGiveWay(BuyerCrowd.never(), Duration.ZERO, Duration.ofMillis(1), Clock.systemUTC(),
                System::nanoTime, duration -> { });
    }

    public static OrdersGiveWay to(BuyerCrowd buyers, Duration maxWait, Duration look, Clock clock) {
        return new OrdersGiveWay(buyers, maxWait, look, clock, System::nanoTime, PausePort.SLEEP);
    }

    /** Returns once the crowd is gone or the batch has waited enough; how long it held the batch back. */
    public Duration awaitTurn(Instant oldestReservedAt) {
        if (maxWait.isZero()) {
            return Duration.ZERO;
        }
        long start = nanoTime.getAsLong();
        Instant oldestDue = oldestReservedAt.plus(maxWait);
        while (buyers.crowded() && clock.instant().isBefore(oldestDue)
                && nanoTime.getAsLong() - start < maxWait.toNanos()) {
            try {
                pause.pause(look);
            } catch (InterruptedException stopping) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Duration.ofNanos(nanoTime.getAsLong() - start);
    }
}
