package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;

/**
 * The reservation ids that start with one prefix, as a range of the primary key: {@code from <= id < to}. Ids are
 * {@code utf8mb4_bin}, compared by code point, and every prefix ends in '.', whose successor is '/', so the range holds
 * exactly the ids that start with the prefix, and a read of it touches no other row (a LIKE would scan the rows it
 * cannot rule out by the index).
 */
record ReservationRange(String from, String to) {

    /** Every order of the activity: {@code <activityId>.} (ADR 5). */
    static ReservationRange of(ActivityId activityId) {
        return startingWith(activityId.value() + ".");
    }

    /**
     * The orders made in the slice: {@code <activityId>.<k>of<n>.}, or for a sale of one slice every order of the
     * activity. The prefix is taken from an id the domain makes in the slice, so it follows the domain's form.
     */
    static ReservationRange of(SaleSlice slice) {
        String token = "0";
        String madeInTheSlice = ReservationId.of(slice, token).value();
        return startingWith(madeInTheSlice.substring(0, madeInTheSlice.length() - token.length()));
    }

    /** Whether the id lies in the range: it starts with the prefix, which is {@code from}. */
    boolean holds(ReservationId id) {
        return id.value().startsWith(from);
    }

    private static ReservationRange startingWith(String prefix) {
        return new ReservationRange(prefix, prefix.substring(0, prefix.length() - 1) + '/');
    }
}
