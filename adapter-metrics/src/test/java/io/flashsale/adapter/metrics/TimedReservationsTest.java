package io.flashsale.adapter.metrics;

import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimedReservationsTest {

    @Test
    void givenAttempts_whenDecided_thenEachOutcomeIsTimedUnderItsOwnTagAndPassedThrough() {
        var registry = new SimpleMeterRegistry();
        ReservationOutcome soldOut = new ReservationOutcome.SoldOut(new SkuId("sku-a"));
        ReserveStockUseCase decided = command -> soldOut;
        var timed = new TimedReservations(decided, registry);

        assertThat(timed.reserve(null)).isSameAs(soldOut);
        timed.reserve(null);

        assertThat(registry.get(TimedReservations.RESERVATIONS).tag("outcome", "SoldOut").timer().count()).isEqualTo(2);
        assertThat(registry.find(TimedReservations.RESERVATIONS).tag("outcome", "Reserved").timer()).isNull();
    }

    @Test
    void givenTheUseCaseThrows_whenAttempted_thenTheAttemptIsTimedAsFailedAndTheExceptionPassesOn() {
        var registry = new SimpleMeterRegistry();
        IllegalStateException unavailable = new IllegalStateException("the stores are out of reach");
        ReserveStockUseCase failing = command -> {
            throw unavailable;
        };
        var timed = new TimedReservations(failing, registry);
        assertThat(registry.get(TimedReservations.RESERVATIONS).tag("outcome", TimedReservations.FAILED).timer()
                .count()).as("registered before the first failure").isZero();

        assertThatThrownBy(() -> timed.reserve(null)).isSameAs(unavailable);

        assertThat(registry.get(TimedReservations.RESERVATIONS).tag("outcome", TimedReservations.FAILED).timer()
                .count()).isEqualTo(1);
    }
}
