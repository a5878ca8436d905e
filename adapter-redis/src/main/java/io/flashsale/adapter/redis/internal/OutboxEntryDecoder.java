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
import java.util.ArrayList;
import java.util.List;
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
 * Reads one outbox stream entry back into the reservations it announces, in any shape {@code reserve.lua} has written:
 * one field per reservation, its id, whose value is its record as the records hash keeps it, for every reservation
 * one reserve call accepted (ADR 107; a reservation id always holds a dot, so it is never a field name of the older
 * shapes); the older {@code reservationId, record} of one reservation (ADR 105); the older
 * {@code reservationId, buyerId, requestId, lines, reservedAt} with the instant packed as the record keeps it (ADR 68;
 * the activity is the reservation id's, the type is always "reserved"); or the oldest
 * {@code type, reservationId, activityId, buyerId, requestId, lines, at, reservedAt} with ISO-8601 text (older still:
 * no {@code reservedAt}, the epoch millis of {@code at}), which entries written before an upgrade still hold.
 */
public final class OutboxEntryDecoder {

    private OutboxEntryDecoder() {
    }

    /**
     * The reservations an entry announces, in the order it holds them, as they were accepted: RESERVED, each at its
     * exact {@code reservedAt}. They share the entry's id, so they are acknowledged together.
     *
     * @throws IllegalArgumentException when any of them is not a "reserved" event of this activity that the domain
     *                                  accepts, whatever the reason: the entry is then read as none
     */
    public static List<OutboxEntry> decodeAll(ActivityId activityId, String entryId, Map<String, String> body) {
        if (body == null || isOlderShape(body)) {
            return List.of(decode(activityId, entryId, body));
        }
        var entries = new ArrayList<OutboxEntry>(body.size());
        body.forEach((id, record) -> {
            try {
                entries.add(new OutboxEntry(entryId, fromRecord(activityId, reservationIdOf(activityId, id), record)));
            } catch (RuntimeException unreadable) {
                throw new IllegalArgumentException("malformed outbox entry " + entryId + " of activity " + activityId
                        + " at " + id + " = " + record + ": " + unreadable.getMessage(), unreadable);
            }
        });
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("malformed outbox entry " + entryId + " of activity " + activityId
                    + ": no fields");
        }
        return entries;
    }

    /** The reservation ids an entry of any shape announces, read without decoding their records. */
    public static List<String> reservationIds(Map<String, String> body) {
        if (isOlderShape(body)) {
            String id = body.get(OUTBOX_RESERVATION_ID);
            return id == null ? List.of() : List.of(id);
        }
        return body.keySet().stream().filter(ReservationId::isValid).toList();
    }

    private static boolean isOlderShape(Map<String, String> body) {
        return body.containsKey(OUTBOX_RESERVATION_ID) || body.containsKey(OUTBOX_TYPE);
    }

    private static ReservationId reservationIdOf(ActivityId activityId, String id) {
        var reservationId = new ReservationId(id);
        if (!reservationId.activityId().equals(activityId)) {
            throw new IllegalArgumentException("belongs to activity " + reservationId.activityId());
        }
        return reservationId;
    }

    /**
     * The reservation an entry of an older shape, of one reservation, announces, as it was accepted: RESERVED, at its
     * exact {@code reservedAt}.
     *
     * @throws IllegalArgumentException when the entry is not a "reserved" event of this activity that the domain
     *                                  accepts, whatever the reason
     */
    static OutboxEntry decode(ActivityId activityId, String entryId, Map<String, String> body) {
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
