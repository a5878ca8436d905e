package io.flashsale.chaos.check;

import io.flashsale.chaos.history.Entry;

import java.util.List;

/** One broken promise: which invariant, what was seen, and the part of the history that shows it. */
public record Violation(Invariant invariant, String detail, List<Entry> evidence) {

    public enum Invariant {
        OVERSOLD, LEDGERS_DISAGREE, OVER_LIMIT, DOUBLE_ORDER, LOST_RESERVATION, RESTORE_NOT_ONCE,
        SERVER_ERROR, UNDOCUMENTED_REFUSAL,
        /** A payment or cancellation of a reservation its buyer holds answered "not found" (ADR 116). */
        HELD_RESERVATION_NOT_FOUND,
        /** The system did not heal or settle: a server did not come back, an admin call never answered. */
        NOT_QUIET
    }

    public Violation {
        evidence = List.copyOf(evidence);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(invariant + ": " + detail);
        evidence.stream().limit(20).forEach(entry -> text.append("\n      ").append(entry));
        if (evidence.size() > 20) {
            text.append("\n      ... ").append(evidence.size() - 20).append(" more");
        }
        return text.toString();
    }
}
