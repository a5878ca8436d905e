package io.flashsale.application.sale.port.out;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;

import java.util.Optional;

/** Finds a sale by id: all the reservation path asks of the database of record, so it can be answered from memory. */
public interface ActivityLookupPort {

    Optional<Activity> findById(ActivityId activityId);
}
