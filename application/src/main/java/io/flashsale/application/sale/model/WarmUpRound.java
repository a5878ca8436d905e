package io.flashsale.application.sale.model;

import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.domain.activity.ActivityId;

import java.util.List;
import java.util.Optional;

/**
 * What one pass of the warm-up schedule did.
 *
 * @param warmedUp activities loaded by this pass, as in {@link WarmUpPass#warmedUp()}
 * @param rebuilds the lost activities rebuilt from the database of record, in the order tried, with their outcome
 * @param failure  the first rebuild that failed, the later ones suppressed in it; empty when none failed
 */
public record WarmUpRound(List<ActivityId> warmedUp, List<Rebuild> rebuilds, Optional<RuntimeException> failure) {

    public WarmUpRound {
        warmedUp = List.copyOf(warmedUp);
        rebuilds = List.copyOf(rebuilds);
    }

    /** A lost activity's rebuild and what it came to. */
    public record Rebuild(ActivityId activity, RebuildOutcome outcome) {
    }
}
