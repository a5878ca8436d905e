package io.flashsale.application.order.service;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class BuyerCrowdTest {

    private static final Duration LOOK = Duration.ofMillis(20);

    private long nanos;
    private double cpu;
    private final AtomicInteger cpuReads = new AtomicInteger();
    private final BuyerCrowd crowd = new BuyerCrowd(() -> {
        cpuReads.incrementAndGet();
        return cpu;
    }, 0.9, LOOK, () -> nanos);

    private void nextLook() {
        nanos += LOOK.toNanos();
    }

    @Test
    void givenBuyersArrivingOnABusyMachine_thenTheyAreACrowd() {
        cpu = 0.95;
        crowd.arrived();

        assertThat(crowd.crowded()).isTrue();
    }

    @Test
    void givenBuyersArrivingWithCpuToSpare_thenTheyAreNoCrowd() {
        cpu = 0.6;
        crowd.arrived();

        assertThat(crowd.crowded()).isFalse();
    }

    @Test
    void givenABusyMachineButNoBuyerForAWholeLook_thenNoCrowd_soAPipelineDrainingAloneDoesNotHoldItselfBack() {
        cpu = 1.0;
        crowd.arrived();
        assertThat(crowd.crowded()).isTrue();

        nextLook();
        assertThat(crowd.crowded()).as("one look without buyers: the crowd may only have paused").isTrue();
        nextLook();

        assertThat(crowd.crowded()).isFalse();
    }

    @Test
    void givenOneLookOfLowCpuInTheMiddleOfACrowd_thenStillACrowd() {
        cpu = 0.95;
        crowd.arrived();
        assertThat(crowd.crowded()).isTrue();

        cpu = 0.5;
        crowd.arrived();
        nextLook();
        assertThat(crowd.crowded()).isTrue();

        crowd.arrived();
        nextLook();
        assertThat(crowd.crowded()).isFalse();
    }

    @Test
    void givenAnUnknownCpuFigure_thenNoCrowd() {
        cpu = -1;
        crowd.arrived();

        assertThat(crowd.crowded()).isFalse();
    }

    @Test
    void givenManyAsksWithinOneLook_thenTheCpuIsReadOnceAndTheAnswerKeptUntilTheNextLook() {
        cpu = 0.95;
        crowd.arrived();
        assertThat(crowd.crowded()).isTrue();
        cpu = 0.1;

        assertThat(crowd.crowded()).isTrue();
        assertThat(crowd.crowded()).isTrue();
        assertThat(cpuReads).hasValue(1);

        crowd.arrived();
        nextLook();
        assertThat(crowd.crowded()).as("the crowd of the look before").isTrue();
        assertThat(cpuReads).hasValue(2);
    }

    @Test
    void givenEveryAttemptGoesThroughCountedReservations_thenEachCountsAsAnArrivalWhateverItsEnd() {
        cpu = 0.95;
        CountedReservations counted = new CountedReservations(command -> {
            throw new IllegalStateException("the store failed");
        }, crowd);

        try {
            counted.reserve(null);
        } catch (IllegalStateException expected) {
            assertThat(expected).hasMessage("the store failed");
        }

        assertThat(crowd.crowded()).isTrue();
    }

    @Test
    void givenNever_thenNeverACrowd() {
        BuyerCrowd never = BuyerCrowd.never();
        never.arrived();

        assertThat(never.crowded()).isFalse();
    }
}
