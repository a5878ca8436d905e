package io.flashsale.application.port.out;

import io.flashsale.application.port.in.ActivityAlreadyExistsException;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

/** Activities in the database of record. */
public interface ActivityRepository {

    /** @throws ActivityAlreadyExistsException when the id is taken */
    void add(Activity activity);

    Optional<Activity> findById(ActivityId activityId);
}
