package io.flashsale.application.sale.port.in;

import io.flashsale.domain.activity.ActivityId;

import java.util.List;

public interface ScheduleArchivesUseCase {

    /**
     * One pass of the archive schedule: tries every ended activity not archived yet. Those still in flight are
     * left for a later pass. Returns the activities archived by this pass.
     */
    List<ActivityId> archiveDue();
}
