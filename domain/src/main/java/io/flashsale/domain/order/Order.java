package io.flashsale.domain.order;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.List;

/**
 * A reservation as the database of record holds it. Its id is the reservation's id, so a second
 * delivery of the same reservation can only ever find this order, never make another.
 *
 * @param status        ORDERED once placed; FAILED when the database refused it; later PAID, CANCELLED, EXPIRED
 * @param failureReason why the database refused it; null unless FAILED
 */
public record Order(ReservationId id, BuyerId buyerId, RequestId requestId, List<ReservationLine> lines,
                    ReservationStatus status, OrderRefusal failureReason, Instant reservedAt, Instant placedAt) {

    public Order {
        Require.present(id, "id");
        Require.present(buyerId, "buyerId");
        Require.present(requestId, "requestId");
        lines = Reservation.requireLines(lines);
        Require.present(status, "status");
        if ((status == ReservationStatus.FAILED) != (failureReason != null)) {
            throw new IllegalArgumentException("a failure reason goes with FAILED and only with it");
        }
        if (status == ReservationStatus.RESERVED) {
            throw new IllegalArgumentException("an order is never RESERVED: that state lives in the hot store");
        }
        Require.present(reservedAt, "reservedAt");
        Require.present(placedAt, "placedAt");
    }

    public static Order placed(Reservation reservation, Instant placedAt) {
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(),
                ReservationStatus.ORDERED, null, reservation.reservedAt(), placedAt);
    }

    public static Order refused(Reservation reservation, OrderRefusal reason, Instant placedAt) {
        return new Order(reservation.id(), reservation.buyerId(), reservation.requestId(), reservation.lines(),
                ReservationStatus.FAILED, reason, reservation.reservedAt(), placedAt);
    }

    public ActivityId activityId() {
        return id.activityId();
    }

    /** The reservation this order settled, in the order's status. */
    public Reservation toReservation() {
        return new Reservation(id, activityId(), buyerId, requestId, lines, status, reservedAt);
    }
}
