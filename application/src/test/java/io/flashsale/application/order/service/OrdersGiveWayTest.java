package io.flashsale.application.order.service;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OrdersGiveWayTest {

    private static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");
    private static final Duration MAX_WAIT = Duration.ofSeconds(30);
    private static final Duration LOOK = Duration.ofMillis(20);

    /** The service's clock and a monotonic ticker that move only when the hold pauses, so nothing here sleeps. */
    private static final class Time {
        long nanos;
        Instant wall = NOW;
        final List<Duration> pauses = new ArrayList<>();

        void pause(Duration duration) {
            pauses.add(duration);
            nanos += duration.toNanos();
            wall = wall.plus(duration);
        }
    }

    private final Time time = new Time();
    private double cpu = 0.95;
    private boolean arriving = true;
    private final BuyerCrowd buyers = new BuyerCrowd(() -> cpu, 0.9, LOOK, () -> time.nanos);

    /** Buyers keep arriving while {@link #arriving}, one look after another. */
    private void pause(Duration duration) {
        time.pause(duration);
        if (arriving) {
            buyers.arrived();
        }
    }

    private OrdersGiveWay giveWay(Duration maxWait) {
        return new OrdersGiveWay(buyers, maxWait, LOOK, () -> time.wall, () -> time.nanos, this::pause);
    }

    @Test
    void givenBuyersArrivingWithCpuToSpare_thenTheBatchGoesAtOnce() {
        cpu = 0.5;
        buyers.arrived();

        assertThat(giveWay(MAX_WAIT).awaitTurn(NOW)).isZero();
        assertThat(time.pauses).isEmpty();
    }

    @Test
    void givenACrowd_thenTheBatchWaitsUntilItThins() {
        buyers.arrived();
        OrdersGiveWay giveWay = new OrdersGiveWay(buyers, MAX_WAIT, LOOK, () -> time.wall, () -> time.nanos,
                duration -> {
                    arriving = time.pauses.size() < 4;
                    pause(duration);
                });

        Duration held = giveWay.awaitTurn(NOW);

        // Buyers arrive after the first four pauses; the fifth look is the first without them, the sixth says so.
        assertThat(time.pauses).hasSize(6).allMatch(LOOK::equals);
        assertThat(held).isEqualTo(LOOK.multipliedBy(6));
    }

    @Test
    void givenACrowdThatStays_thenNoReservationWaitsLongerThanTheMaxWaitCountedFromTheOldest() {
        buyers.arrived();

        Duration held = giveWay(MAX_WAIT).awaitTurn(NOW.minusSeconds(29));

        assertThat(held).isEqualTo(Duration.ofSeconds(1));
        assertThat(giveWay(MAX_WAIT).awaitTurn(NOW.minusSeconds(31))).isZero();
    }

    @Test
    void givenAServiceClockBehindTheReservations_thenTheHoldStillEndsAfterTheMaxWaitOfItsOwn() {
        buyers.arrived();

        Duration held = giveWay(MAX_WAIT).awaitTurn(NOW.plus(Duration.ofDays(1)));

        assertThat(held).isEqualTo(MAX_WAIT);
    }

    @Test
    void givenNoMaxWait_thenNothingIsEverHeld() {
        buyers.arrived();

        assertThat(giveWay(Duration.ZERO).awaitTurn(NOW)).isZero();
        assertThat(OrdersGiveWay.never().awaitTurn(NOW)).isZero();
    }

    @Test
    void givenAnInterruptWhileHeld_thenTheHoldEndsAndTheInterruptIsKept() {
        buyers.arrived();
        OrdersGiveWay giveWay = new OrdersGiveWay(buyers, MAX_WAIT, LOOK, () -> time.wall, () -> time.nanos,
                duration -> {
                    time.pause(duration);
                    throw new InterruptedException("stopping");
                });

        try {
            assertThat(giveWay.awaitTurn(NOW)).isEqualTo(LOOK);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
