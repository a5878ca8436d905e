package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.Activity;

import java.time.Instant;
import java.util.List;

/** Finds the sales whose windows meet a stretch of time: what the warm-up and reconciliation schedules ask. */
public interface ActivityWindowsPort {

    /**
     * Activities not archived whose window [startsAt, endsAt) meets [from, to]: they start by {@code to} and have not
     * ended at {@code from}. Earliest start first.
     */
    List<Activity> findUnarchivedOverlapping(Instant from, Instant to);
}
