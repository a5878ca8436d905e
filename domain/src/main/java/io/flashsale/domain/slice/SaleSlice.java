package io.flashsale.domain.slice;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.shared.Require;

/** One slice of a sale (ADR 109): which hash slot holds it follows from the three alone. */
public record SaleSlice(ActivityId activityId, int index, SaleSlices slices) {

    public SaleSlice {
        Require.present(activityId, "activityId");
        Require.present(slices, "slices");
        slices.requireSlice(index, "slice");
    }
}
