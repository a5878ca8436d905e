package io.flashsale.domain.reconciliation;

import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.Objects;

/**
 * What the database of record settled for a reservation the hot store holds.
 *
 * @param wasOrdered whether it ever became an order (and so ever took stock there)
 * @param settledAt  when the database settled it: the moment the hot store was due to hear of it
 */
public record RecordedOrder(ReservationId id, ReservationStatus status, boolean wasOrdered, Instant settledAt) {

    public RecordedOrder {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(settledAt, "settledAt");
    }

    /** Whether the database counts the order's units as sold right now. */
    public boolean holdsStock() {
        return status.holdsStock();
    }

    /**
     * Whether a buyer's cancel the hot store won can still close the order here (ADR 32): an ORDERED one can; a closed
     * one settled it, and a paid one stands.
     */
    public boolean canFollowACancel() {
        return status == ReservationStatus.ORDERED;
    }
}
