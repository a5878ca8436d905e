package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.ActivityId;

import java.util.List;

/**
 * What one pass of the warm-up schedule did.
 *
 * @param warmedUp        activities this pass found not loaded and loaded; an instance racing this one may report
 *                        the same activity, the hot store still loads it only once
 * @param awaitingRebuild activities due but not loaded although the database of record already has sales for them
 *                        (the hot store lost them): loading their totals would sell those units again, so they stay
 *                        not ready until they are rebuilt from the database of record
 */
public record WarmUpPass(List<ActivityId> warmedUp, List<ActivityId> awaitingRebuild) {

    public WarmUpPass {
        warmedUp = List.copyOf(warmedUp);
        awaitingRebuild = List.copyOf(awaitingRebuild);
    }
}
