package io.flashsale.application.slice.service;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.application.slice.port.in.GetSlicePlacementUseCase;
import io.flashsale.application.slice.port.out.SlicePlacementPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;

/**
 * A sale's slices as the hot store's topology places them (ADR 109). Slices that share a master where another master
 * is free carry no more than fewer slices would: the placement says so, for the operator to reshard or recut.
 */
public final class SlicePlacementService implements GetSlicePlacementUseCase {

    private final ActivityLookupPort activities;
    private final SlicePlacementPort placement;

    public SlicePlacementService(ActivityLookupPort activities, SlicePlacementPort placement) {
        this.activities = activities;
        this.placement = placement;
    }

    @Override
    public SlicePlacement placement(ActivityId activityId) {
        Activity sale = activities.findById(activityId).orElseThrow(() -> new ActivityNotFoundException(activityId));
        return placement.placementOf(activityId, sale.slices());
    }
}
