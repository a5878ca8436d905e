package io.flashsale.application.reservation.port.in;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;

/**
 * A reservation decided by the database of record while the hot store is out (ADR 0039): the rules the reserve script
 * applies before it touches stock, then stock and the buyer's holdings in one transaction. Which store decides an
 * attempt is not this use case's to say: the outage adapter calls it once it has taken the attempt off the hot store
 * (ADR 0090).
 */
public interface ReserveOnDatabaseUseCase {

    /**
     * A repeat of a request the database accepted before is answered with that reservation.
     *
     * @throws ActivityNotFoundException when there is no such sale
     */
    ReservationOutcome reserve(ReservationRequest request);
}
