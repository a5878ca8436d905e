package io.flashsale.domain.activity;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator's move of a sale's window [startsAt, endsAt), judged at one instant (ADR 79). A sale that has ended
 * keeps its window (its end may already have been acted on: archive, reports); a running sale may be extended or
 * shortened, but never to an end that has passed, and keeps its start; a sale not started yet may move both, as long
 * as the start is not in the past and the end comes after it.
 */
public sealed interface SaleWindowChange {

    /** The sale with its new window. */
    record Moved(Activity activity) implements SaleWindowChange {
    }

    /** Nothing changes, for {@code reason}. */
    record Refused(Reason reason) implements SaleWindowChange {
    }

    enum Reason {
        /** The sale has ended: its window is closed for good. */
        SALE_ENDED,
        /** The start of a sale that has started cannot move. */
        SALE_STARTED,
        /** The end would be now or in the past: a running sale is never cut short below now. */
        ENDS_NOT_AFTER_NOW,
        /** The end would not come after the start. */
        ENDS_NOT_AFTER_START,
        /** The start would be in the past. */
        STARTS_BEFORE_NOW
    }

    /**
     * @param newStartsAt the new start, or null to keep it
     * @param newEndsAt   the new end, or null to keep it
     */
    static SaleWindowChange of(Activity sale, Instant newStartsAt, Instant newEndsAt, Instant now) {
        Objects.requireNonNull(now, "now");
        if (newStartsAt == null && newEndsAt == null) {
            throw new IllegalArgumentException("a window change moves startsAt, endsAt or both");
        }
        SalePhase phase = sale.phaseAt(now);
        if (phase == SalePhase.ENDED) {
            return new Refused(Reason.SALE_ENDED);
        }
        Instant startsAt = newStartsAt == null ? sale.startsAt() : newStartsAt;
        Instant endsAt = newEndsAt == null ? sale.endsAt() : newEndsAt;
        if (phase == SalePhase.OPEN && !startsAt.equals(sale.startsAt())) {
            return new Refused(Reason.SALE_STARTED);
        }
        if (phase == SalePhase.NOT_STARTED && startsAt.isBefore(now)) {
            return new Refused(Reason.STARTS_BEFORE_NOW);
        }
        if (!endsAt.isAfter(now)) {
            return new Refused(Reason.ENDS_NOT_AFTER_NOW);
        }
        if (!endsAt.isAfter(startsAt)) {
            return new Refused(Reason.ENDS_NOT_AFTER_START);
        }
        return new Moved(new Activity(sale.id(), sale.name(), startsAt, endsAt, sale.perUserLimit(),
                sale.paymentTimeout(), sale.items(), sale.paused(), sale.slices()));
    }
}
