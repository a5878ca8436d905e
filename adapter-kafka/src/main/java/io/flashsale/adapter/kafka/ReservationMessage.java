package io.flashsale.adapter.kafka;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.List;

/**
 * The "reserved" event on the wire: one accepted reservation, keyed by its id.
 *
 * @param reservedAt ISO-8601 instant in UTC with nine fraction digits, e.g. {@code 2026-11-29T12:00:00.123456789Z};
 *                   any ISO-8601 instant is read
 * @param version    bumped only by a change that older readers cannot safely ignore; additions keep the version
 *                   because readers skip fields they do not know
 */
public record ReservationMessage(String reservationId, String activityId, String buyerId, String requestId,
                                 List<Line> lines, String reservedAt, int version) {

    public static final int CURRENT_VERSION = 1;

    private static final DateTimeFormatter NANOSECONDS = new DateTimeFormatterBuilder().appendInstant(9).toFormatter();

    public record Line(String skuId, int quantity) {
    }

    /** The event for a reservation just accepted by the hot store. */
    public static ReservationMessage of(Reservation reservation) {
        if (reservation.status() != ReservationStatus.RESERVED) {
            throw new IllegalArgumentException("only a RESERVED reservation is announced, "
                    + reservation.id() + " is " + reservation.status());
        }
        List<Line> lines = reservation.lines().stream()
                .map(line -> new Line(line.skuId().value(), line.quantity()))
                .toList();
        return new ReservationMessage(reservation.id().value(), reservation.activityId().value(),
                reservation.buyerId().value(), reservation.requestId().value(), lines,
                NANOSECONDS.format(reservation.reservedAt()), CURRENT_VERSION);
    }

    /**
     * The reservation this event announces, RESERVED.
     *
     * @throws MalformedReservationMessageException when a field is missing or breaks a domain rule
     */
    public Reservation toReservation() {
        if (version < 1 || version > CURRENT_VERSION) {
            throw new MalformedReservationMessageException("unsupported version " + version
                    + " (this reader knows 1 to " + CURRENT_VERSION + ")");
        }
        try {
            return new Reservation(new ReservationId(reservationId), new ActivityId(activityId), new BuyerId(buyerId),
                    new RequestId(requestId), domainLines(), ReservationStatus.RESERVED,
                    Instant.parse(required(reservedAt, "reservedAt")));
        } catch (MalformedReservationMessageException alreadyExplained) {
            throw alreadyExplained;
        } catch (RuntimeException invalid) {
            throw new MalformedReservationMessageException("invalid reservation " + reservationId + ": "
                    + invalid.getMessage(), invalid);
        }
    }

    private List<ReservationLine> domainLines() {
        return required(lines, "lines").stream()
                .map(line -> new ReservationLine(new SkuId(required(line, "lines[]").skuId()), line.quantity()))
                .toList();
    }

    private static <T> T required(T value, String field) {
        if (value == null) {
            throw new MalformedReservationMessageException("missing field " + field);
        }
        return value;
    }
}
