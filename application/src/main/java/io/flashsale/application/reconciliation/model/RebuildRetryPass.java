package io.flashsale.application.reconciliation.model;

import io.flashsale.domain.activity.ActivityId;

import java.util.List;

/**
 * The rebuild retries that finished since the last pass (a pass hands due sales to workers and does not wait).
 *
 * @param loaded  sales rebuilt now, or found loaded (by another instance) and reconciled with the database of record
 * @param waiting sales whose rebuild still cannot finish (the pipeline holds their reservations, another instance
 *                rebuilds them, a store did not answer): asked again after a longer wait
 * @param leftToSchedule sales still not rebuilt at the bound: no longer retried here, the reconciliation schedule
 *                rebuilds them
 */
public record RebuildRetryPass(List<ActivityId> loaded, List<ActivityId> waiting, List<ActivityId> leftToSchedule) {

    public RebuildRetryPass {
        loaded = List.copyOf(loaded);
        waiting = List.copyOf(waiting);
        leftToSchedule = List.copyOf(leftToSchedule);
    }

    public boolean isEmpty() {
        return loaded.isEmpty() && waiting.isEmpty() && leftToSchedule.isEmpty();
    }
}
