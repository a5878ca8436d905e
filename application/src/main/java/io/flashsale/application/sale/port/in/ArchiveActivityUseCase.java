package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ArchiveOutcome;
import io.flashsale.domain.activity.ActivityId;

public interface ArchiveActivityUseCase {

    /**
     * Archives an ended sale once nothing of it is in flight: its keys leave the hot store, the database of record
     * (which keeps every order and the buyers' purchases) notes when. Safe to repeat and to run on several instances.
     */
    ArchiveOutcome archive(ActivityId activityId);
}
