package io.flashsale.adapter.mysql;

import java.time.Instant;
import java.util.function.Supplier;

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

    /**
     * The instant an expiry pass both judges and stamps with: one clock for both, so no order is stamped expired
     * before its deadline by a clock other than the one that found it due.
     */
    Instant expiryInstant(Instant serviceNow, Supplier<Instant> databaseNow) {
        return this == SERVICE ? serviceNow : databaseNow.get();
    }
}
