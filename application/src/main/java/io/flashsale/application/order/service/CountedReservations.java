package io.flashsale.application.order.service;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.ReservationOutcome;

/** Tells the {@link BuyerCrowd} of every attempt, before it is answered. */
public final class CountedReservations implements ReserveStockUseCase {

    private final ReserveStockUseCase reservations;
    private final BuyerCrowd crowd;

    public CountedReservations(ReserveStockUseCase reservations, BuyerCrowd crowd) {
        this.reservations = reservations;
        this.crowd = crowd;
    }

    @Override
    public ReservationOutcome reserve(ReserveStockCommand command) {
        crowd.arrived();
        return reservations.reserve(command);
    }
}
