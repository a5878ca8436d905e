package io.flashsale.domain.activity;

import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import io.flashsale.domain.shared.Require;
import io.flashsale.domain.slice.SaleSlices;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * A sale: SKUs with fixed stock, a per-user limit and a time window [startsAt, endsAt). An operator may pause it: a
 * paused sale refuses every attempt inside its window until it is resumed (ADR 79). Its slices (ADR 109) are fixed
 * when it is created.
 */
public record Activity(ActivityId id, String name, Instant startsAt, Instant endsAt,
                       PurchaseLimit perUserLimit, Duration paymentTimeout, List<ActivityItem> items, boolean paused,
                       SaleSlices slices) {

    public static final int MAX_ITEMS = 50;
    public static final int MAX_NAME_LENGTH = 200;
    public static final Duration DEFAULT_PAYMENT_TIMEOUT = Duration.ofMinutes(15);

    public Activity {
        Require.present(id, "id");
        Require.text(name, MAX_NAME_LENGTH, "name");
        Require.present(startsAt, "startsAt");
        Require.present(endsAt, "endsAt");
        if (!endsAt.isAfter(startsAt)) {
            throw new InvalidValueException("endsAt", "must be after startsAt");
        }
        Require.present(perUserLimit, "perUserLimit");
        Require.present(paymentTimeout, "paymentTimeout");
        if (paymentTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidValueException("paymentTimeoutSeconds", "must be at least 1 second");
        }
        Require.present(items, "items");
        Require.inRange(items.size(), 1, MAX_ITEMS, "items");
        var seen = new HashSet<SkuId>();
        for (ActivityItem item : items) {
            Require.present(item, "items");
            if (!seen.add(item.skuId())) {
                throw new InvalidValueException("items", "repeat skuId " + item.skuId());
            }
        }
        items = List.copyOf(items);
        Require.present(slices, "slices");
    }

    /** A sale in one slice. */
    public Activity(ActivityId id, String name, Instant startsAt, Instant endsAt,
                    PurchaseLimit perUserLimit, Duration paymentTimeout, List<ActivityItem> items, boolean paused) {
        this(id, name, startsAt, endsAt, perUserLimit, paymentTimeout, items, paused, SaleSlices.ONE);
    }

    /** A sale in one slice that is not paused. */
    public Activity(ActivityId id, String name, Instant startsAt, Instant endsAt,
                    PurchaseLimit perUserLimit, Duration paymentTimeout, List<ActivityItem> items) {
        this(id, name, startsAt, endsAt, perUserLimit, paymentTimeout, items, false, SaleSlices.ONE);
    }

    /** This sale paused; pausing a paused sale changes nothing. */
    public Activity pause() {
        return new Activity(id, name, startsAt, endsAt, perUserLimit, paymentTimeout, items, true, slices);
    }

    /** This sale resumed; resuming a sale that is not paused changes nothing. */
    public Activity resume() {
        return new Activity(id, name, startsAt, endsAt, perUserLimit, paymentTimeout, items, false, slices);
    }

    /**
     * This sale with its window moved to [{@code newStartsAt}, {@code newEndsAt}) at {@code now}, or why not: see
     * {@link SaleWindowChange}.
     */
    public SaleWindowChange moveWindow(Instant newStartsAt, Instant newEndsAt, Instant now) {
        return SaleWindowChange.of(this, newStartsAt, newEndsAt, now);
    }

    public Optional<ActivityItem> item(SkuId skuId) {
        return items.stream().filter(item -> item.skuId().equals(skuId)).findFirst();
    }

    /** The limit that applies to one SKU: its own override, else the activity's. */
    public PurchaseLimit limitFor(ActivityItem item) {
        return item.perUserLimit() == null ? perUserLimit : new PurchaseLimit(item.perUserLimit());
    }

    public SalePhase phaseAt(Instant now) {
        if (now.isBefore(startsAt)) {
            return SalePhase.NOT_STARTED;
        }
        return now.isBefore(endsAt) ? SalePhase.OPEN : SalePhase.ENDED;
    }
}
