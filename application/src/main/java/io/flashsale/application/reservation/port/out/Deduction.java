package io.flashsale.application.reservation.port.out;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;

import java.time.Duration;
import java.util.List;

/**
 * One attempt the stock store answered.
 *
 * @param requestId the buyer's idempotency key, or the key the service gave an attempt that came without one
 * @param elapsed   from the attempt's arrival at the service to its outcome, the store's round trip included
 */
public record Deduction(ActivityId activityId, RequestId requestId, BuyerId buyerId, List<ReservationLine> lines,
                        ReservationOutcome outcome, Duration elapsed) {
}
