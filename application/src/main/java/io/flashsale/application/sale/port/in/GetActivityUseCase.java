package io.flashsale.application.sale.port.in;

import io.flashsale.application.sale.model.ActivityView;
import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

public interface GetActivityUseCase {

    Optional<ActivityView> find(ActivityId activityId);
}
