package io.flashsale.application.sale.service;

import io.flashsale.application.sale.model.ListedActivity;
import io.flashsale.application.sale.port.in.ListActivitiesUseCase;
import io.flashsale.application.sale.port.out.UnarchivedActivitiesPort;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** Lists the sales not archived yet, each with its phase at one instant, so every row is judged by the same clock. */
public class ActivityListingService implements ListActivitiesUseCase {

    private final UnarchivedActivitiesPort activities;
    private final Clock clock;

    public ActivityListingService(UnarchivedActivitiesPort activities, Clock clock) {
        this.activities = activities;
        this.clock = clock;
    }

    @Override
    public List<ListedActivity> unarchived() {
        Instant now = clock.instant();
        return activities.findUnarchived(MAX_LISTED).stream()
                .map(activity -> new ListedActivity(activity, activity.phaseAt(now)))
                .toList();
    }
}
