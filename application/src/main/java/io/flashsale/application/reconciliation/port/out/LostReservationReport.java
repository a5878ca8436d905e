package io.flashsale.application.reconciliation.port.out;

import io.flashsale.domain.reservation.Reservation;

import java.time.Instant;
import java.util.List;

/**
 * One audit of the acknowledged reservations after a restart of the hot store, handed to whoever reports it.
 *
 * @param audited         journal entries looked at
 * @param unaudited       entries acknowledged since the last audit that the journal no longer held (overwritten)
 * @param reachedDatabase entries the database of record has an order for (any status)
 * @param deadLettered    entries whose event waits in the dead-letter topic
 * @param keptByHotStore  entries not in the database that the hot store still holds
 * @param lost            acknowledged, and in neither store nor the pipeline
 */
public record LostReservationReport(String incarnation, Instant finishedAt, long audited, long unaudited,
                                    long reachedDatabase, long deadLettered, long keptByHotStore,
                                    List<Reservation> lost) {

    public LostReservationReport {
        lost = List.copyOf(lost);
    }
}
