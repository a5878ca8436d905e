package io.flashsale.adapter.mysql.replica;

import java.time.Duration;
import java.util.Objects;

/**
 * A read-only replica of the database of record (ADR 86).
 *
 * @param url           its JDBC URL
 * @param maxLag        the replication lag above which every read goes to the primary
 * @param checkInterval how long one reading of the replica's status serves every read
 * @param catchUpWait   how long a read that must be current waits for the replica to apply what the primary had
 *                      committed; past it the read goes to the primary
 */
public record ReplicaSettings(String url, String username, String password, Duration maxLag, Duration checkInterval,
                              Duration catchUpWait) {

    public ReplicaSettings {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException("a replica needs a JDBC url");
        }
        username = Objects.requireNonNullElse(username, "");
        password = Objects.requireNonNullElse(password, "");
        requirePositive(maxLag, "max-lag");
        requirePositive(checkInterval, "check-interval");
        requirePositive(catchUpWait, "catch-up-wait");
    }

    /** Without the password: settings may end up in a log or a failure message. */
    @Override
    public String toString() {
        return "ReplicaSettings[url=" + url + ", username=" + username + ", maxLag=" + maxLag + ", checkInterval="
                + checkInterval + ", catchUpWait=" + catchUpWait + "]";
    }

    private static void requirePositive(Duration duration, String name) {
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("flashsale.datasource.replica." + name + " must be positive, was "
                    + duration);
        }
    }
}
