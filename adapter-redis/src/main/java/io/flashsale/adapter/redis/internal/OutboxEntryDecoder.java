package io.flashsale.adapter.redis.internal;

import io.flashsale.application.port.out.OutboxEntry;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.Map;

import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_ACTIVITY_ID;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_AT_MILLIS;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_BUYER_ID;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_LINES;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_REQUEST_ID;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_RESERVATION_ID;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_RESERVED_AT;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_TYPE;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_TYPE_RESERVED;

/** Reads one outbox stream entry, as {@code reserve.lua} writes it, back into the reservation it announces. */
public final class OutboxEntryDecoder {

    private OutboxEntryDecoder() {
    }

    /**
     * The reservation as it was accepted: RESERVED, at its exact {@code reservedAt} (entries written before that
     * field existed fall back to the epoch millis of {@code at}).
     *
     * @throws IllegalArgumentException when the entry is not a "reserved" event of this activity that the domain
     *                                  accepts, whatever the reason
     */
    public static OutboxEntry decode(ActivityId activityId, String entryId, Map<String, String> body) {
        try {
            if (body == null) {
                throw new IllegalArgumentException("the entry has no fields");
            }
            if (!OUTBOX_TYPE_RESERVED.equals(body.get(OUTBOX_TYPE))) {
                throw new IllegalArgumentException("unknown type " + body.get(OUTBOX_TYPE));
            }
            if (!activityId.value().equals(body.get(OUTBOX_ACTIVITY_ID))) {
                throw new IllegalArgumentException("belongs to activity " + body.get(OUTBOX_ACTIVITY_ID));
            }
            var reservation = new Reservation(new ReservationId(required(body, OUTBOX_RESERVATION_ID)), activityId,
                    new BuyerId(required(body, OUTBOX_BUYER_ID)), new RequestId(required(body, OUTBOX_REQUEST_ID)),
                    ReservationLines.decode(required(body, OUTBOX_LINES)), ReservationStatus.RESERVED,
                    reservedAt(body));
            return new OutboxEntry(entryId, reservation);
        } catch (RuntimeException unreadable) {
            throw new IllegalArgumentException("malformed outbox entry " + entryId + " of activity " + activityId
                    + " " + body + ": " + unreadable.getMessage(), unreadable);
        }
    }

    private static Instant reservedAt(Map<String, String> body) {
        String exact = body.get(OUTBOX_RESERVED_AT);
        return exact != null ? Instant.parse(exact) : Instant.ofEpochMilli(Long.parseLong(required(body, OUTBOX_AT_MILLIS)));
    }

    private static String required(Map<String, String> body, String field) {
        String value = body.get(field);
        if (value == null) {
            throw new IllegalArgumentException("missing field " + field);
        }
        return value;
    }
}
