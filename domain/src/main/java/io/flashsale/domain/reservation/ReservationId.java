package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.InvalidValueException;

import java.util.regex.Pattern;

/**
 * Server-made, time-ordered, and carrying its activity: {@code <activityId>.<token>}.
 * The activity part lets a store find the reservation under the activity's own keys
 * (one Redis hash slot) from the id alone.
 */
public record ReservationId(String value) {

    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9_-]{1,64}\\.[A-Za-z0-9]{1,32}");

    public ReservationId {
        if (value == null || !SHAPE.matcher(value).matches()) {
            throw new InvalidValueException("reservationId", "is not a reservation id");
        }
    }

    public static ReservationId of(ActivityId activityId, String token) {
        return new ReservationId(activityId.value() + "." + token);
    }

    public static boolean isValid(String value) {
        return value != null && SHAPE.matcher(value).matches();
    }

    public ActivityId activityId() {
        return new ActivityId(value.substring(0, value.lastIndexOf('.')));
    }

    @Override
    public String toString() {
        return value;
    }
}
