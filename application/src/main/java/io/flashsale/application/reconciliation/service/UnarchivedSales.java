package io.flashsale.application.reconciliation.service;

import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.port.out.ActivityArchivesPort;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;

/** The sales reconciliation may still act on: known, and not archived. */
final class UnarchivedSales {

    private final ActivityLookupPort activities;
    private final ActivityArchivesPort archives;

    UnarchivedSales(ActivityLookupPort activities, ActivityArchivesPort archives) {
        this.activities = activities;
        this.archives = archives;
    }

    /**
     * @throws ActivityNotFoundException when there is no such sale
     * @throws ActivityArchivedException when the sale was archived
     */
    Activity get(ActivityId activityId) {
        Activity activity = activities.findById(activityId)
                .orElseThrow(() -> new ActivityNotFoundException(activityId));
        if (archives.archivedAt(activityId).isPresent()) {
            throw new ActivityArchivedException(activityId);
        }
        return activity;
    }
}
