package io.flashsale.application.reservation.port.in;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.reservation.ReservationOutcome;

public interface ReserveStockUseCase {

    /** @throws ActivityNotFoundException when there is no such activity */
    ReservationOutcome reserve(ReserveStockCommand command);
}
