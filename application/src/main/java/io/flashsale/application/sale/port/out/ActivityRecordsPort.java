package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

/** What the database of record says of a sale for reading it: the read path's only question to it. */
public interface ActivityRecordsPort {

    /** Empty when there is no such sale. */
    Optional<ActivityRecord> find(ActivityId activityId);
}
