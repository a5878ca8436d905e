package io.flashsale.application.order.port.out;

import io.flashsale.domain.reservation.Reservation;

import java.util.Objects;

/**
 * One accepted reservation waiting in the hot store's outbox; {@code entryId} is the store's own position, which the
 * reservations accepted together may share (see {@link ReservationOutboxPort}).
 */
public record OutboxEntry(String entryId, Reservation reservation) {

    public OutboxEntry {
        Objects.requireNonNull(entryId, "entryId");
        Objects.requireNonNull(reservation, "reservation");
    }
}
