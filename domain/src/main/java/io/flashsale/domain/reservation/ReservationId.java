package io.flashsale.domain.reservation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.Identifier;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

/**
 * Server-made, time-ordered, and carrying its activity: {@code <activityId>.<token>}, or for a sale of n > 1 slices
 * (ADR 109) {@code <activityId>.<k>of<n>.<token>}, naming the slice k the reservation was made in. Either way a store
 * finds the reservation under its slice's own keys (one Redis hash slot) from the id alone. The activity part is
 * {@code [A-Za-z0-9_-]{1,64}}, the token {@code [A-Za-z0-9]{1,32}}, the slice part decimal without leading zeros,
 * {@code k < n <= 64}; checked by hand (see {@link Identifier}).
 */
public record ReservationId(String value) {

    private static final int TOKEN_MAX_LENGTH = 32;
    private static final String SLICE_OF = "of";

    public ReservationId {
        if (!isValid(value)) {
            throw new InvalidValueException("reservationId", "is not a reservation id");
        }
    }

    public static ReservationId of(ActivityId activityId, String token) {
        return new ReservationId(activityId.value() + "." + token);
    }

    /** An id made in the slice: a sale of one slice gets the form ids had before slices. */
    public static ReservationId of(SaleSlice slice, String token) {
        if (!slice.slices().sliced()) {
            return of(slice.activityId(), token);
        }
        return new ReservationId(slice.activityId().value() + "." + slice.index() + SLICE_OF + slice.slices().count()
                + "." + token);
    }

    public static boolean isValid(String value) {
        if (value == null) {
            return false;
        }
        // The activity part has no dot, so the first dot is the separator; the token has none either.
        int dot = value.indexOf('.');
        if (dot <= 0 || !Identifier.isRun(value, 0, dot, Identifier.MAX_LENGTH, true)) {
            return false;
        }
        int last = value.lastIndexOf('.');
        return Identifier.isRun(value, last + 1, value.length(), TOKEN_MAX_LENGTH, false)
                && (last == dot || sliceOf(value, dot + 1, last) != null);
    }

    public ActivityId activityId() {
        return new ActivityId(value.substring(0, value.indexOf('.')));
    }

    /** The slice the reservation was made in: slice 0 of one for an id of the form without a slice. */
    public SaleSlice slice() {
        int dot = value.indexOf('.');
        int last = value.lastIndexOf('.');
        if (last == dot) {
            return new SaleSlice(activityId(), 0, SaleSlices.ONE);
        }
        int[] slice = sliceOf(value, dot + 1, last);
        return new SaleSlice(activityId(), slice[0], new SaleSlices(slice[1]));
    }

    /** {@code <k>of<n>} between from and to as {k, n}, or null when it is not one of a sliced sale's slices. */
    private static int[] sliceOf(String value, int from, int to) {
        int of = value.indexOf(SLICE_OF, from);
        if (of < 0 || of >= to) {
            return null;
        }
        int index = decimal(value, from, of);
        int count = decimal(value, of + SLICE_OF.length(), to);
        return index >= 0 && count > 1 && count <= SaleSlices.MAX && index < count ? new int[] {index, count} : null;
    }

    /** The decimal between from and to (one or two digits, no leading zero but "0"), or -1. */
    private static int decimal(String value, int from, int to) {
        int length = to - from;
        if (length < 1 || length > 2 || (length == 2 && value.charAt(from) == '0')) {
            return -1;
        }
        int number = 0;
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            number = number * 10 + (c - '0');
        }
        return number;
    }

    @Override
    public String toString() {
        return value;
    }
}
