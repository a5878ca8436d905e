package io.flashsale.application.port.in;

import io.flashsale.domain.reservation.ReservationOutcome;

public interface ReserveStockUseCase {

    /** @throws ActivityNotFoundException when there is no such activity */
    ReservationOutcome reserve(ReserveStockCommand command);
}
