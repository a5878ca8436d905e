package io.flashsale.domain.reservation;

import java.util.Set;

/**
 * RESERVED -> ORDERED -> PAID; ORDERED -> CANCELLED | EXPIRED; RESERVED -> FAILED | CANCELLED.
 * PAID, CANCELLED, EXPIRED and FAILED are final.
 */
public enum ReservationStatus {
    RESERVED,
    ORDERED,
    PAID,
    CANCELLED,
    EXPIRED,
    FAILED;

    public Set<ReservationStatus> next() {
        return switch (this) {
            case RESERVED -> Set.of(ORDERED, FAILED, CANCELLED);
            case ORDERED -> Set.of(PAID, CANCELLED, EXPIRED);
            case PAID, CANCELLED, EXPIRED, FAILED -> Set.of();
        };
    }

    public boolean canBecome(ReservationStatus target) {
        return next().contains(target);
    }

    public boolean isFinal() {
        return next().isEmpty();
    }

    /**
     * Whether an ORDERED reservation that moves here gives its sold units and the buyer's allowance back:
     * CANCELLED and EXPIRED. (PAID keeps them; nothing else follows ORDERED.)
     */
    public boolean restoresOrderedUnits() {
        return ORDERED.canBecome(this) && !holdsStock();
    }

    /** Whether units of a reservation in this status still count against stock and the buyer's limit. */
    public boolean holdsStock() {
        return this == RESERVED || this == ORDERED || this == PAID;
    }
}
