package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.Require;

import java.time.Instant;
import java.util.List;

/**
 * One attempt to reserve, as the stock store receives it: the id is made up front so the store
 * can write the reservation in the same atomic step that deducts the stock.
 *
 * @param buyerBucket the buyer's rate limit at this sale, or null for none: a store that keeps buckets takes one
 *                    token of the buyer's bucket first, in the same atomic step, and without a token answers
 *                    {@link ReservationOutcome.RateLimited} and moves nothing (one round trip for both, ADR 0060)
 */
public record ReservationRequest(ReservationId id, BuyerId buyerId, RequestId requestId,
                                 List<ReservationLine> lines, Instant at, BucketLimit buyerBucket) {

    public ReservationRequest(ReservationId id, BuyerId buyerId, RequestId requestId, List<ReservationLine> lines,
                              Instant at) {
        this(id, buyerId, requestId, lines, at, null);
    }

    public ReservationRequest {
        Require.present(id, "reservationId");
        Require.present(buyerId, "buyerId");
        Require.present(requestId, "requestId");
        lines = Reservation.requireLines(lines);
        Require.present(at, "at");
    }

    /** This attempt behind the buyer's bucket {@code limit} (null: none). */
    public ReservationRequest behind(BucketLimit limit) {
        return new ReservationRequest(id, buyerId, requestId, lines, at, limit);
    }

    public ActivityId activityId() {
        return id.activityId();
    }

    /**
     * Whether the buyer sent a key of their own: an attempt without one carries its reservation id's token as its key,
     * and can never be replayed.
     */
    public boolean keyed() {
        String value = id.value();
        String key = requestId.value();
        int dot = value.length() - key.length() - 1;
        return dot <= 0 || value.charAt(dot) != '.' || !value.endsWith(key);
    }

    public Reservation toReservation() {
        return new Reservation(id, activityId(), buyerId, requestId, lines, ReservationStatus.RESERVED, at);
    }
}
