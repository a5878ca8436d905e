package io.flashsale.adapter.mysql;

import java.time.Instant;

/**
 * Which clock judges a payment deadline, in the paying UPDATE and in the expiry's claim (ADR 0082). The comparison is
 * always made in SQL; only the instant it compares with differs.
 */
public enum DeadlineClock {

    /** The database's {@code UTC_TIMESTAMP(6)}: one clock for every instance, whatever their own clocks say. */
    DATABASE,

    /** The instant the service hands in: for tests that move the service's clock to reach a deadline. */
    SERVICE;

    /** The instant the statement compares the deadline with; null lets the statement read the database's clock. */
    Instant judgedAt(Instant serviceNow) {
        return this == SERVICE ? serviceNow : null;
    }
}
