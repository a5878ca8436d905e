package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.application.order.port.out.OutboxEntry;
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
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_RECORD;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_REQUEST_ID;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_RESERVATION_ID;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_RESERVED_AT;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_TYPE;
import static io.flashsale.adapter.redis.RedisKeys.OUTBOX_TYPE_RESERVED;

/**
 * Reads one outbox stream entry back into the reservation it announces, in any shape {@code reserve.lua} has written:
 * {@code reservationId, record} with the reservation's record as the records hash keeps it (ADR 105); the older
 * {@code reservationId, buyerId, requestId, lines, reservedAt} with the instant packed as the record keeps it (ADR 68;
 * the activity is the reservation id's, the type is always "reserved"); or the oldest
 * {@code type, reservationId, activityId, buyerId, requestId, lines, at, reservedAt} with ISO-8601 text (older still:
 * no {@code reservedAt}, the epoch millis of {@code at}), which entries written before an upgrade still hold.
 */
public final class OutboxEntryDecoder {

    private OutboxEntryDecoder() {
    }

    /**
     * The reservation as it was accepted: RESERVED, at its exact {@code reservedAt}.
     *
     * @throws IllegalArgumentException when the entry is not a "reserved" event of this activity that the domain
     *                                  accepts, whatever the reason
     */
    public static OutboxEntry decode(ActivityId activityId, String entryId, Map<String, String> body) {
        try {
            if (body == null) {
                throw new IllegalArgumentException("the entry has no fields");
            }
            String type = body.getOrDefault(OUTBOX_TYPE, OUTBOX_TYPE_RESERVED);
            if (!OUTBOX_TYPE_RESERVED.equals(type)) {
                throw new IllegalArgumentException("unknown type " + type);
            }
            String activity = body.getOrDefault(OUTBOX_ACTIVITY_ID, activityId.value());
            if (!activityId.value().equals(activity)) {
                throw new IllegalArgumentException("belongs to activity " + activity);
            }
            var id = new ReservationId(required(body, OUTBOX_RESERVATION_ID));
            String record = body.get(OUTBOX_RECORD);
            return new OutboxEntry(entryId, record != null ? fromRecord(activityId, id, record)
                    : new Reservation(id, activityId, new BuyerId(required(body, OUTBOX_BUYER_ID)),
                            new RequestId(required(body, OUTBOX_REQUEST_ID)),
                            ReservationLines.decode(required(body, OUTBOX_LINES)), ReservationStatus.RESERVED,
                            reservedAt(body)));
        } catch (RuntimeException unreadable) {
            throw new IllegalArgumentException("malformed outbox entry " + entryId + " of activity " + activityId
                    + " " + body + ": " + unreadable.getMessage(), unreadable);
        }
    }

    private static Reservation fromRecord(ActivityId activityId, ReservationId id, String value) {
        ReservationRecord record = ReservationRecord.decode(value);
        if (record.status() != ReservationStatus.RESERVED) {
            throw new IllegalArgumentException("the record is " + record.status() + ", not RESERVED");
        }
        return new Reservation(id, activityId, record.buyer(), record.requestId(), record.lines(),
                ReservationStatus.RESERVED, record.reservedAt());
    }

    private static Instant reservedAt(Map<String, String> body) {
        String exact = body.get(OUTBOX_RESERVED_AT);
        return exact != null ? ReservationRecord.unpack(exact)
                : Instant.ofEpochMilli(Long.parseLong(required(body, OUTBOX_AT_MILLIS)));
    }

    private static String required(Map<String, String> body, String field) {
        String value = body.get(field);
        if (value == null) {
            throw new IllegalArgumentException("missing field " + field);
        }
        return value;
    }
}
