package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;

/** Units of one or more SKUs held for one buyer; becomes an order, or gives its stock back. */
public record Reservation(ReservationId id, ActivityId activityId, BuyerId buyerId, RequestId requestId,
                          List<ReservationLine> lines, ReservationStatus status, Instant reservedAt) {

    public static final int MAX_LINES = 50;

    public Reservation {
        Require.present(id, "reservationId");
        Require.present(activityId, "activityId");
        if (!id.activityId().equals(activityId)) {
            throw new InvalidValueException("reservationId", "belongs to another activity");
        }
        Require.present(buyerId, "buyerId");
        Require.present(requestId, "requestId");
        lines = requireLines(lines);
        Require.present(status, "status");
        Require.present(reservedAt, "reservedAt");
    }

    /** Lines of one request: 1..50, each SKU at most once. */
    public static List<ReservationLine> requireLines(List<ReservationLine> lines) {
        Require.present(lines, "items");
        Require.inRange(lines.size(), 1, MAX_LINES, "items");
        var seen = new HashSet<SkuId>();
        for (ReservationLine line : lines) {
            Require.present(line, "items");
            if (!seen.add(line.skuId())) {
                throw new InvalidValueException("items", "repeat skuId " + line.skuId());
            }
        }
        return List.copyOf(lines);
    }

    public Reservation transitionTo(ReservationStatus target) {
        if (!status.canBecome(target)) {
            throw new IllegalTransitionException(status, target);
        }
        return new Reservation(id, activityId, buyerId, requestId, lines, target, reservedAt);
    }

    public boolean isOwnedBy(BuyerId buyer) {
        return buyerId.equals(buyer);
    }
}
