package io.flashsale.domain.reconciliation;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.ReservationId;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one reconciliation of one SKU found and did. Figures are seen as if every move on its way between the stores
 * had landed (see {@link StockReconciliation}).
 *
 * @param expected         what the database of record says the hot store should hold
 * @param actual           what the hot store held when the action was decided
 * @param after            what the hot store holds after the action (the repaired figures, or {@code actual})
 * @param holdingMismatches buyers the hot store counted differently, before the action
 * @param redriven         reservations whose lost events were appended to the outbox again
 * @param confirmed        reservations the hot store was told the database's settlement of
 * @param released         FAILED reservations whose units a repair gave back
 * @param detail           one line for people: what was off and why nothing, or what, was done
 */
public record ReconciliationReport(ActivityId activityId, SkuId skuId, Instant runAt,
                                   ReconciliationClassification classification, ReconciliationAction action,
                                   LedgerFigures expected, LedgerFigures actual, LedgerFigures after,
                                   List<HoldingMismatch> holdingMismatches, List<ReservationId> redriven,
                                   List<ReservationId> confirmed, List<ReservationId> released, String detail) {

    public ReconciliationReport {
        Objects.requireNonNull(activityId, "activityId");
        Objects.requireNonNull(skuId, "skuId");
        Objects.requireNonNull(runAt, "runAt");
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(actual, "actual");
        Objects.requireNonNull(after, "after");
        holdingMismatches = List.copyOf(holdingMismatches);
        redriven = List.copyOf(redriven);
        confirmed = List.copyOf(confirmed);
        released = List.copyOf(released);
        Objects.requireNonNull(detail, "detail");
    }

    public LedgerFigures drift() {
        return actual.minus(expected);
    }

    /** The largest disagreement in units over the figures and the buyers' holdings, before the action. */
    public long driftUnits() {
        long holdings = holdingMismatches.stream()
                .mapToLong(mismatch -> Math.abs(mismatch.actual() - mismatch.expected())).max().orElse(0);
        return Math.max(drift().largest(), holdings);
    }

    /** Nothing was found and nothing was done: not worth a row in the report table. */
    public boolean isClean() {
        return classification == ReconciliationClassification.NONE && action == ReconciliationAction.NONE;
    }

    /** The sentence {@code detail} starts with, naming what was acted on. */
    public static String describe(ReconciliationClassification classification, ReconciliationAction action,
                                  LedgerFigures drift, List<HoldingMismatch> mismatches, List<ReservationId> redriven,
                                  List<ReservationId> confirmed, List<ReservationId> released, String why) {
        List<String> parts = new ArrayList<>();
        parts.add(classification + "/" + action);
        if (!drift.isZero()) {
            parts.add("drift " + drift);
        }
        if (!mismatches.isEmpty()) {
            parts.add("holdings " + mismatches);
        }
        if (!redriven.isEmpty()) {
            parts.add("re-driven " + redriven);
        }
        if (!confirmed.isEmpty()) {
            parts.add("confirmed " + confirmed);
        }
        if (!released.isEmpty()) {
            parts.add("released " + released);
        }
        if (why != null && !why.isBlank()) {
            parts.add(why);
        }
        return String.join("; ", parts);
    }
}
