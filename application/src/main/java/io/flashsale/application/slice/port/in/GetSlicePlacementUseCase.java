package io.flashsale.application.slice.port.in;

import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.slice.model.SlicePlacement;
import io.flashsale.domain.activity.ActivityId;

/** On how many of the hot store's masters a sale's slices sit now (ADR 109): part of the sale's status. */
public interface GetSlicePlacementUseCase {

    /** @throws ActivityNotFoundException when there is no such activity */
    SlicePlacement placement(ActivityId activityId);
}
