package io.flashsale.application.port.in;

import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

public interface GetActivityUseCase {

    Optional<ActivityView> find(ActivityId activityId);
}
