package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.Identifier;
import io.flashsale.domain.shared.InvalidValueException;

/**
 * Server-made, time-ordered, and carrying its activity: {@code <activityId>.<token>}.
 * The activity part lets a store find the reservation under the activity's own keys
 * (one Redis hash slot) from the id alone. Its shape is {@code [A-Za-z0-9_-]{1,64}\.[A-Za-z0-9]{1,32}}, checked by
 * hand (see {@link Identifier}).
 */
public record ReservationId(String value) {

    private static final int TOKEN_MAX_LENGTH = 32;

    public ReservationId {
        if (!isValid(value)) {
            throw new InvalidValueException("reservationId", "is not a reservation id");
        }
    }

    public static ReservationId of(ActivityId activityId, String token) {
        return new ReservationId(activityId.value() + "." + token);
    }

    public static boolean isValid(String value) {
        if (value == null) {
            return false;
        }
        // The activity part has no dot, so the first dot is the separator; the token has none either.
        int dot = value.indexOf('.');
        return dot > 0
                && Identifier.isRun(value, 0, dot, Identifier.MAX_LENGTH, true)
                && Identifier.isRun(value, dot + 1, value.length(), TOKEN_MAX_LENGTH, false);
    }

    public ActivityId activityId() {
        return new ActivityId(value.substring(0, value.lastIndexOf('.')));
    }

    @Override
    public String toString() {
        return value;
    }
}
