package io.flashsale.application.slice.port.out;

import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.slice.SaleSlices;

/** The hot store's topology as a sale's slices meet it (ADR 109): which masters hold them, read now. */
public interface SlicePlacementPort {

    /**
     * How many of the hot store's masters hold the slices of a sale cut into {@code slices}, by the slots their keys
     * hash to and the topology as the store sees it now; a single server holds them all on its one master.
     */
    SlicePlacement placementOf(ActivityId activityId, SaleSlices slices);
}
