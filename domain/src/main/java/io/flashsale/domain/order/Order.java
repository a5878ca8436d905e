package io.flashsale.domain.order;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.IllegalTransitionException;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.reservation.StatusTimes;
import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.List;

/**
 * A reservation as the database of record holds it. Its id is the reservation's id, so a second
 * delivery of the same reservation can only ever find this order, never make another.
 *
 * @param status        ORDERED once placed; FAILED when the database refused it; later PAID, CANCELLED, EXPIRED.
 *                      CANCELLED also records a reservation the buyer cancelled before it became an order
 * @param failureReason why the database refused it; null unless FAILED
 * @param placedAt      when the database settled the reservation (ordered, refused, or recorded as cancelled)
 * @param orderedAt     when it became an order; null when it never did (FAILED, cancelled before it was ordered)
 * @param closedAt      when it left ORDERED for PAID, CANCELLED or EXPIRED, or was cancelled before it was ordered;
 *                      null while ORDERED and for FAILED
 */
public record Order(ReservationId id, BuyerId buyerId, RequestId requestId, List<ReservationLine> lines,
                    ReservationStatus status, OrderRefusal failureReason, Instant reservedAt, Instant placedAt,
                    Instant orderedAt, Instant closedAt) {

    public Order {
        Require.present(id, "id");
        Require.present(buyerId, "buyerId");
        Require.present(requestId, "requestId");
        lines = Reservation.requireLines(lines);
        Require.present(status, "status");
        if ((status == ReservationStatus.FAILED) != (failureReason != null)) {
            throw new IllegalArgumentException("a failure reason goes with FAILED and only with it");
        }
        Require.present(reservedAt, "reservedAt");
        Require.present(placedAt, "placedAt");
        requireTimesOf(status, orderedAt, closedAt);
    }

    /** An order that is ORDERED (made at {@code placedAt}) or FAILED: the two statuses a placement produces. */
    public Order(ReservationId id, BuyerId buyerId, RequestId requestId, List<ReservationLine> lines,
                 ReservationStatus status, OrderRefusal failureReason, Instant reservedAt, Instant placedAt) {
        this(id, buyerId, requestId, lines, status, failureReason, reservedAt, placedAt,
                status == ReservationStatus.FAILED ? null : placedAt, null);
    }

    private static void requireTimesOf(ReservationStatus status, Instant orderedAt, Instant closedAt) {
        boolean consistent = switch (status) {
            case RESERVED -> throw new IllegalArgumentException(
                    "an order is never RESERVED: that state lives in the hot store");
            case ORDERED -> orderedAt != null && closedAt == null;
            case PAID, EXPIRED -> orderedAt != null && closedAt != null;
            case CANCELLED -> closedAt != null;
            case FAILED -> orderedAt == null && closedAt == null;
        };
        if (!consistent) {
            throw new IllegalArgumentException("a " + status + " order cannot have orderedAt=" + orderedAt
                    + " and closedAt=" + closedAt);
        }
    }

    public static Order placed(Reservation reservation, Instant placedAt) {
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(),
                ReservationStatus.ORDERED, null, reservation.reservedAt(), placedAt, placedAt, null);
    }

    public static Order refused(Reservation reservation, OrderRefusal reason, Instant placedAt) {
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(),
                ReservationStatus.FAILED, reason, reservation.reservedAt(), placedAt, null, null);
    }

    /**
     * A reservation the buyer cancelled while the hot store still held it, recorded so that a late delivery
     * finds it settled and never makes it an order. It takes no stock: the hot store gave its units back.
     */
    public static Order cancelledBeforeOrder(Reservation reservation, Instant cancelledAt, Instant recordedAt) {
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(),
                ReservationStatus.CANCELLED, null, reservation.reservedAt(), recordedAt, null, cancelledAt);
    }

    /** ORDERED -> PAID, CANCELLED or EXPIRED at {@code at}; every other move is refused. */
    public Order closed(ReservationStatus target, Instant at) {
        if (!status.canBecome(target)) {
            throw new IllegalTransitionException(status, target);
        }
        Require.present(at, "at");
        return new Order(id, buyerId, requestId, lines, target, null, reservedAt, placedAt, orderedAt, at);
    }

    public ActivityId activityId() {
        return id.activityId();
    }

    /** Whether the reservation ever became an order (and so ever took stock in the database of record). */
    public boolean wasOrdered() {
        return orderedAt != null;
    }

    public StatusTimes times() {
        return new StatusTimes(reservedAt, orderedAt,
                status == ReservationStatus.PAID ? closedAt : null,
                status == ReservationStatus.CANCELLED ? closedAt : null,
                status == ReservationStatus.EXPIRED ? closedAt : null,
                status == ReservationStatus.FAILED ? placedAt : null);
    }

    /** The reservation this order settled, in the order's status. */
    public Reservation toReservation() {
        return new Reservation(id, activityId(), buyerId, requestId, lines, status, reservedAt);
    }
}
