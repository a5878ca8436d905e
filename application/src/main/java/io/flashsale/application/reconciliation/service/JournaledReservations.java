package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.in.ReserveStockUseCase;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationStatus;

/**
 * Notes every reservation the hot store accepted (RESERVED) in the {@link AcknowledgementJournal} before the buyer is
 * answered. Those the database path decided (ORDERED at once) are in the database already and are not noted.
 */
public final class JournaledReservations implements ReserveStockUseCase {

    private final ReserveStockUseCase reservations;
    private final AcknowledgementJournal journal;

    public JournaledReservations(ReserveStockUseCase reservations, AcknowledgementJournal journal) {
        this.reservations = reservations;
        this.journal = journal;
    }

    @Override
    public ReservationOutcome reserve(ReserveStockCommand command) {
        ReservationOutcome outcome = reservations.reserve(command);
        if (outcome instanceof ReservationOutcome.Reserved reserved
                && reserved.reservation().status() == ReservationStatus.RESERVED) {
            journal.add(reserved.reservation());
        }
        return outcome;
    }
}
