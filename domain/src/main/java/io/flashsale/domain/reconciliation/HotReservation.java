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
 * @param inPipeline  its event is provably somewhere in the order pipeline: still in the hot store's outbox (as the
 *                    store reads it), or, as the application finds, in the broker beyond what the order consumer has
 *                    read, or in the dead-letter topic. A RESERVED reservation with no order and not in the pipeline
 *                    is lost, whatever its age (ADR 29)
 */
public record HotReservation(ReservationId id, BuyerId buyerId, ReservationStatus status, long units,
                             Instant reservedAt, Instant cancelledAt, boolean inPipeline) {

    public HotReservation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(buyerId, "buyerId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(reservedAt, "reservedAt");
        if (units < 1) {
            throw new IllegalArgumentException("a reservation holds at least one unit of the SKU, not " + units);
        }
    }

    /** The same reservation, found somewhere in the pipeline. */
    public HotReservation foundInPipeline() {
        return inPipeline ? this : new HotReservation(id, buyerId, status, units, reservedAt, cancelledAt, true);
    }
}
