package io.flashsale.application.reservation.model;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.shared.Require;

import java.util.List;

/**
 * @param requestId     the buyer's idempotency key; null when the buyer sent none
 * @param clientAddress the client's address as the gateway reported it, for the per-client rate limit; null when
 *                      unknown or exempt (loopback)
 * @param origin        the address and device the risk control judges ({@link AttemptOrigin#UNKNOWN} when neither
 *                      is known)
 */
public record ReserveStockCommand(ActivityId activityId, BuyerId buyerId, RequestId requestId,
                                  List<ReservationLine> lines, String clientAddress, AttemptOrigin origin) {

    public ReserveStockCommand {
        Require.present(activityId, "activityId");
        Require.present(buyerId, "buyerId");
        lines = Reservation.requireLines(lines);
        origin = origin == null ? AttemptOrigin.UNKNOWN : origin;
    }

    public ReserveStockCommand(ActivityId activityId, BuyerId buyerId, RequestId requestId,
                               List<ReservationLine> lines, String clientAddress) {
        this(activityId, buyerId, requestId, lines, clientAddress, AttemptOrigin.UNKNOWN);
    }

    public ReserveStockCommand(ActivityId activityId, BuyerId buyerId, RequestId requestId,
                               List<ReservationLine> lines) {
        this(activityId, buyerId, requestId, lines, null);
    }
}
