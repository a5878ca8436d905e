package io.flashsale.chaos;

import io.flashsale.chaos.check.Checker;
import io.flashsale.chaos.check.Violation;
import io.flashsale.chaos.history.Entry;
import io.flashsale.chaos.history.History;

import java.util.List;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Open defects the campaign knows about, each with its reason. A schedule whose every violation is one of these is
 * counted as known-failing (separately, in the summary), never as passed; any other violation fails the build. The
 * checker itself is never weakened for them: remove an entry when its fix lands and the schedules pass again.
 */
final class KnownGaps {

    record Gap(String name, String reason, BiPredicate<History, Violation> covers) {
    }

    /** How long after a fault heals the service may still be reconnecting (Lettuce's backoff, Hikari's pool). */
    private static final long RECONNECT_MILLIS = 5_000;

    static final List<Gap> GAPS = List.of(
            new Gap("request-id-twice-across-redis-outage", "since the Redis-outage mode (issue 12) was merged, a "
                    + "request id retried across a Redis fault can become two reservations and two orders in MySQL, one "
                    + "of them FAILED (LIMIT_EXCEEDED), the other holding stock: no unit is sold twice, but the "
                    + "request id is not idempotent across the switch. Found by this campaign (fixed seeds 1-4, 17, 20, "
                    + "21, 38 after the merge); to be fixed in the outage path",
                    (history, violation) -> violation.invariant() == Violation.Invariant.DOUBLE_ORDER
                            && (violation.detail().contains(" was answered with ")
                            || violation.detail().contains(" is 2 orders: ")
                            && violation.detail().split("status=FAILED", -1).length == 2)
                            && history.faults().stream().anyMatch(fault -> fault.kind().startsWith("REDIS"))));

    private KnownGaps() {
    }

    static Optional<Gap> covering(History history, Violation violation) {
        return GAPS.stream().filter(gap -> gap.covers().test(history, violation)).findFirst();
    }

    /** Whether the call overlapped a fault of that prefix (REDIS..., DB...), or followed it within a reconnect. */
    private static boolean during(History history, Entry entry, String kindPrefix) {
        return history.faults().stream()
                .filter(fault -> fault.kind().startsWith(kindPrefix))
                .anyMatch(fault -> entry.sentMillis() <= fault.endedMillis() + RECONNECT_MILLIS
                        && entry.answeredMillis() >= fault.startedMillis());
    }
}
