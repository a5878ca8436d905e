package io.flashsale.application.sale.model;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.slice.SaleSlices;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A new sale as the admin described it; validated by building the {@link Activity} it describes.
 *
 * @param id     null to let the service make one
 * @param slices how many slices the sale is cut into (ADR 109); null for one
 */
public record CreateActivityCommand(ActivityId id, String name, Instant startsAt, Instant endsAt,
                                    PurchaseLimit perUserLimit, Duration paymentTimeout, List<ActivityItem> items,
                                    SaleSlices slices) {

    public CreateActivityCommand {
        perUserLimit = perUserLimit == null ? PurchaseLimit.ONE : perUserLimit;
        paymentTimeout = paymentTimeout == null ? Activity.DEFAULT_PAYMENT_TIMEOUT : paymentTimeout;
        slices = slices == null ? SaleSlices.ONE : slices;
        // Fails fast with the domain's own field errors; the id does not matter for validity.
        toActivity(id == null ? new ActivityId("validation") : id, name, startsAt, endsAt, perUserLimit, paymentTimeout,
                items, slices);
    }

    /** A sale of one slice. */
    public CreateActivityCommand(ActivityId id, String name, Instant startsAt, Instant endsAt,
                                 PurchaseLimit perUserLimit, Duration paymentTimeout, List<ActivityItem> items) {
        this(id, name, startsAt, endsAt, perUserLimit, paymentTimeout, items, SaleSlices.ONE);
    }

    public Activity toActivity(ActivityId assignedId) {
        return toActivity(assignedId, name, startsAt, endsAt, perUserLimit, paymentTimeout, items, slices);
    }

    private static Activity toActivity(ActivityId id, String name, Instant startsAt, Instant endsAt,
                                       PurchaseLimit limit, Duration timeout, List<ActivityItem> items,
                                       SaleSlices slices) {
        return new Activity(id, name, startsAt, endsAt, limit, timeout, items, false, slices);
    }
}
