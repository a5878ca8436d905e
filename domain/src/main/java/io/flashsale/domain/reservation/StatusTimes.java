package io.flashsale.domain.reservation;

import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.Optional;

/**
 * When a reservation reached each status it went through; null for a status it never reached.
 *
 * @param orderedAt when the database of record made it an order; null when it never became one
 */
public record StatusTimes(Instant reservedAt, Instant orderedAt, Instant paidAt, Instant cancelledAt,
                          Instant expiredAt, Instant failedAt) {

    public StatusTimes {
        Require.present(reservedAt, "reservedAt");
    }

    public static StatusTimes reservedAt(Instant reservedAt) {
        return new StatusTimes(reservedAt, null, null, null, null, null);
    }

    /** These times plus the moment the reservation reached {@code status}; RESERVED replaces reservedAt. */
    public StatusTimes with(ReservationStatus status, Instant at) {
        Require.present(status, "status");
        Require.present(at, "at");
        return switch (status) {
            case RESERVED -> new StatusTimes(at, orderedAt, paidAt, cancelledAt, expiredAt, failedAt);
            case ORDERED -> new StatusTimes(reservedAt, at, paidAt, cancelledAt, expiredAt, failedAt);
            case PAID -> new StatusTimes(reservedAt, orderedAt, at, cancelledAt, expiredAt, failedAt);
            case CANCELLED -> new StatusTimes(reservedAt, orderedAt, paidAt, at, expiredAt, failedAt);
            case EXPIRED -> new StatusTimes(reservedAt, orderedAt, paidAt, cancelledAt, at, failedAt);
            case FAILED -> new StatusTimes(reservedAt, orderedAt, paidAt, cancelledAt, expiredAt, at);
        };
    }

    public Optional<Instant> at(ReservationStatus status) {
        return Optional.ofNullable(switch (status) {
            case RESERVED -> reservedAt;
            case ORDERED -> orderedAt;
            case PAID -> paidAt;
            case CANCELLED -> cancelledAt;
            case EXPIRED -> expiredAt;
            case FAILED -> failedAt;
        });
    }
}
