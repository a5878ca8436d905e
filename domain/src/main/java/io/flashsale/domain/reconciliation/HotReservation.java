package io.flashsale.domain.reconciliation;

import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.Objects;

/**
 * A reservation as the hot store holds it, seen from one SKU.
 *
 * @param units       units of that SKU in the reservation's lines
 * @param cancelledAt when the buyer cancelled it while it was RESERVED; null otherwise
 * @param inOutbox    its event still waits in the hot store's outbox (not read by a relay yet, or read and not
 *                    acknowledged): it is certainly on its way to the database of record
 */
public record HotReservation(ReservationId id, BuyerId buyerId, ReservationStatus status, long units,
                             Instant reservedAt, Instant cancelledAt, boolean inOutbox) {

    public HotReservation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(buyerId, "buyerId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reservedAt, "reservedAt");
        if (units < 1) {
            throw new IllegalArgumentException("a reservation holds at least one unit of the SKU, not " + units);
        }
    }
}
