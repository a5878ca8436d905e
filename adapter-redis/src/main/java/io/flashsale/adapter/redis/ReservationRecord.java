package io.flashsale.adapter.redis;

import io.flashsale.adapter.redis.internal.ReservationLines;
import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A reservation's record as the hot store keeps it: the one field {@code <id>} of {@link RedisKeys#reservations} (ADR
 * 70), written only by the scripts ({@code fs_record_write} in {@code lua/lib/ledger.lua}) and read here. The value is
 * its parts joined by {@code |}, which no id, line, position or instant ever holds:
 * <pre>
 * status letter | buyer | requestId | lines | reservedAt | position | cancelledAt | redrivenAt
 * </pre>
 * The status is its first letter (R, O, P, C, E, F), the lines {@code sku:quantity,...}, an instant its epoch
 * seconds and nano-of-second in base 36 joined by {@code .} (exact to the nanosecond; an instant outside the years
 * 1970 to 9999 is kept as ISO-8601, which ends in {@code Z} as a packed one never does), the broker position
 * {@code <partition>:<offset>}, redrivenAt the epoch millis of the last re-drive. The last three are empty when absent,
 * and trailing empty parts are left out.
 * <p>A reservation MySQL ordered has no record (ADR 71), and one whose order was restored after it was ordered keeps
 * only its final status letter: a tombstone the restore scripts find, which every read here takes for no record
 * ({@link #read}).
 *
 * @param position    where the broker stored the reservation's event, null until a relay recorded it
 * @param cancelledAt when the buyer cancelled it while RESERVED, null otherwise
 * @param redrivenAt  epoch millis of its last re-drive by reconciliation, null when never
 */
public record ReservationRecord(ReservationStatus status, BuyerId buyer, RequestId requestId,
                                List<ReservationLine> lines, Instant reservedAt, EventPosition position,
                                Instant cancelledAt, Long redrivenAt) {

    private static final char SEPARATOR = '|';
    private static final String STATUS_LETTERS = "ROPCEF";
    private static final ReservationStatus[] STATUSES = {ReservationStatus.RESERVED, ReservationStatus.ORDERED,
            ReservationStatus.PAID, ReservationStatus.CANCELLED, ReservationStatus.EXPIRED, ReservationStatus.FAILED};
    private static final int RADIX = 36;
    private static final Instant PACKED_UNTIL = Instant.parse("+10000-01-01T00:00:00Z");

    public ReservationRecord {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(buyer, "buyer");
        Objects.requireNonNull(requestId, "requestId");
        lines = List.copyOf(lines);
        Objects.requireNonNull(reservedAt, "reservedAt");
    }

    /** The record {@code reserve.lua} writes for an accepted reservation. */
    public static ReservationRecord of(Reservation reservation) {
        return new ReservationRecord(reservation.status(), reservation.buyerId(), reservation.requestId(),
                reservation.lines(), reservation.reservedAt(), null, null, null);
    }

    public Reservation toReservation(ReservationId id) {
        return new Reservation(id, id.activityId(), buyer, requestId, lines, status, reservedAt);
    }

    public ReservationRecord withStatus(ReservationStatus newStatus) {
        return new ReservationRecord(newStatus, buyer, requestId, lines, reservedAt, position, cancelledAt, redrivenAt);
    }

    public ReservationRecord withCancelledAt(Instant at) {
        return new ReservationRecord(status, buyer, requestId, lines, reservedAt, position, at, redrivenAt);
    }

    public String encode() {
        List<String> parts = new ArrayList<>(List.of(String.valueOf(letterOf(status)), buyer.value(),
                requestId.value(), ReservationLines.encode(lines), pack(reservedAt),
                position == null ? "" : position.toString(), cancelledAt == null ? "" : pack(cancelledAt),
                redrivenAt == null ? "" : redrivenAt.toString()));
        while (parts.getLast().isEmpty()) {
            parts.removeLast();
        }
        return String.join(String.valueOf(SEPARATOR), parts);
    }

    /**
     * The record stored as {@code value}; empty for none ({@code null}) and for what a restore leaves of an order, its
     * status letter alone.
     *
     * @throws IllegalStateException when the value is neither a record nor a restored order's letter
     */
    public static Optional<ReservationRecord> read(String value) {
        if (value == null || isRestoredOrder(value)) {
            return Optional.empty();
        }
        return Optional.of(decode(value));
    }

    /** Whether the stored value is what a restore leaves of an order: its final status letter alone (ADR 71). */
    public static boolean isRestoredOrder(String value) {
        return value.length() == 1 && statusOf(value).restoresOrderedUnits();
    }

    /** @throws IllegalStateException when the value is not a record */
    public static ReservationRecord decode(String value) {
        try {
            String[] parts = value.split("\\" + SEPARATOR, -1);
            if (parts.length < 5 || parts.length > 8 || parts[0].length() != 1) {
                throw new IllegalArgumentException(parts.length + " parts");
            }
            return new ReservationRecord(statusOf(value), new BuyerId(parts[1]), new RequestId(parts[2]),
                    ReservationLines.decode(parts[3]), unpack(parts[4]),
                    optional(parts, 5) == null ? null : EventPosition.parse(parts[5]),
                    optional(parts, 6) == null ? null : unpack(parts[6]),
                    optional(parts, 7) == null ? null : Long.valueOf(parts[7]));
        } catch (RuntimeException malformed) {
            throw new IllegalStateException("not a reservation record: " + value, malformed);
        }
    }

    /** The status alone, from the first letter: what a scan by status reads of each record. */
    public static ReservationStatus statusOf(String value) {
        int at = value.isEmpty() ? -1 : STATUS_LETTERS.indexOf(value.charAt(0));
        if (at < 0) {
            throw new IllegalStateException("not a reservation record: " + value);
        }
        return STATUSES[at];
    }

    private static char letterOf(ReservationStatus status) {
        for (int i = 0; i < STATUSES.length; i++) {
            if (STATUSES[i] == status) {
                return STATUS_LETTERS.charAt(i);
            }
        }
        throw new IllegalArgumentException("no letter for " + status);
    }

    private static String optional(String[] parts, int index) {
        return index < parts.length && !parts[index].isEmpty() ? parts[index] : null;
    }

    /**
     * As {@code fs_instant_pack} in {@code lua/lib/ledger.lua}; also how the adapter hands {@code reserve.lua} a
     * reservation's instant and how the outbox entry carries it.
     */
    public static String pack(Instant instant) {
        if (instant.getEpochSecond() < 0 || !instant.isBefore(PACKED_UNTIL)) {
            return instant.toString();
        }
        return Long.toString(instant.getEpochSecond(), RADIX) + "." + Integer.toString(instant.getNano(), RADIX);
    }

    /** A packed instant, or one kept (or written by an older version) as ISO-8601 text, which ends in {@code Z}. */
    public static Instant unpack(String packed) {
        if (packed.endsWith("Z")) {
            return Instant.parse(packed);
        }
        int dot = packed.indexOf('.');
        if (dot < 1) {
            throw new IllegalArgumentException("not a packed instant: " + packed);
        }
        return Instant.ofEpochSecond(Long.parseLong(packed.substring(0, dot), RADIX),
                Long.parseLong(packed.substring(dot + 1), RADIX));
    }
}
