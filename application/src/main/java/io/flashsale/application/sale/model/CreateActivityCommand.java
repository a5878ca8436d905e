package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A new sale as the admin described it; validated by building the {@link Activity} it describes.
 *
 * @param id null to let the service make one
 */
public record CreateActivityCommand(ActivityId id, String name, Instant startsAt, Instant endsAt,
                                    PurchaseLimit perUserLimit, Duration paymentTimeout, List<ActivityItem> items) {

    public CreateActivityCommand {
        perUserLimit = perUserLimit == null ? PurchaseLimit.ONE : perUserLimit;
        paymentTimeout = paymentTimeout == null ? Activity.DEFAULT_PAYMENT_TIMEOUT : paymentTimeout;
        // Fails fast with the domain's own field errors; the id does not matter for validity.
        toActivity(id == null ? new ActivityId("validation") : id, name, startsAt, endsAt, perUserLimit, paymentTimeout, items);
    }

    public Activity toActivity(ActivityId assignedId) {
        return toActivity(assignedId, name, startsAt, endsAt, perUserLimit, paymentTimeout, items);
    }

    private static Activity toActivity(ActivityId id, String name, Instant startsAt, Instant endsAt,
                                       PurchaseLimit limit, Duration timeout, List<ActivityItem> items) {
        return new Activity(id, name, startsAt, endsAt, limit, timeout, items);
    }
}
