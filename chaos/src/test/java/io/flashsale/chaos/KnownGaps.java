package io.flashsale.chaos;

import io.flashsale.chaos.check.Violation;
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

    static final List<Gap> GAPS = List.of(
            new Gap("redis-withholds-after-recovery", "after a Redis outage the order pipeline places or refuses "
                    + "reservations in MySQL without telling Redis while the breaker is open (ADR 39), and the "
                    + "recovery that brings Redis back to MySQL's figures rebuilds or reconciles every sale the "
                    + "instance served since it started, one after the other: with the campaign's 5 new sales a round "
                    + "it took up to 2 minutes, past the checker's patience, and until then Redis withholds units "
                    + "(a reservation still RESERVED there, or sold there and not in MySQL); a second shape, after a "
                    + "long broker restart, is not diagnosed yet. Only the safe direction is covered: Redis never "
                    + "offers more than MySQL has left. docs/reliability.md, defect 8",
                    (history, violation) -> violation.invariant() == Violation.Invariant.LEDGERS_DISAGREE
                            && redisWithholds(violation.detail())
                            && history.faults().stream().anyMatch(fault -> fault.kind().startsWith("REDIS"))));

    private static final java.util.regex.Pattern LEDGERS = java.util.regex.Pattern.compile(
            "Redis HotLedger\\[total=(-?\\d+), available=(-?\\d+), reserved=(-?\\d+), sold=(-?\\d+)\\], MySQL says "
                    + "HotLedger\\[total=(-?\\d+), available=(-?\\d+), reserved=0, sold=(-?\\d+)\\]");

    /** Redis offers at most what MySQL has left, and holds at least what MySQL sold: it under-sells, never over. */
    static boolean redisWithholds(String detail) {
        java.util.regex.Matcher ledgers = LEDGERS.matcher(detail);
        if (!ledgers.find()) {
            return false;
        }
        long redisAvailable = Long.parseLong(ledgers.group(2));
        long redisHeld = Long.parseLong(ledgers.group(3)) + Long.parseLong(ledgers.group(4));
        long mysqlAvailable = Long.parseLong(ledgers.group(6));
        long mysqlSold = Long.parseLong(ledgers.group(7));
        return redisAvailable <= mysqlAvailable && redisHeld >= mysqlSold;
    }

    private KnownGaps() {
    }

    static Optional<Gap> covering(History history, Violation violation) {
        return GAPS.stream().filter(gap -> gap.covers().test(history, violation)).findFirst();
    }
}
