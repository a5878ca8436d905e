package io.flashsale.application.contract;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationRequest;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Builders for stock-port tests: sales whose window is open around {@link #NOW}, and requests with an
 * explicit {@code at}. Every activity id is fresh, so tests sharing one Redis never touch each other's keys.
 */
public final class ContractFixtures {

    /**
     * The moment every fixture sale is open around. Taken from the wall clock once per JVM (a store may expire
     * keys after the sale) and cut to whole seconds, so stores that keep epoch millis hold every boundary exactly.
     */
    public static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    public static final Instant STARTS_AT = NOW.minus(Duration.ofHours(1));
    public static final Instant ENDS_AT = NOW.plus(Duration.ofHours(1));

    private static final String ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private ContractFixtures() {
    }

    /** Random [A-Za-z0-9] text: reservation tokens and unique id suffixes. */
    public static String randomAlphanumeric(int length) {
        var random = ThreadLocalRandom.current();
        var text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(ALPHANUMERIC.charAt(random.nextInt(ALPHANUMERIC.length())));
        }
        return text.toString();
    }

    public static ActivityId randomActivityId() {
        return new ActivityId("c-" + randomAlphanumeric(16));
    }

    /** A sale open from {@link #STARTS_AT} (inclusive) to {@link #ENDS_AT} (exclusive). */
    public static Activity openSale(ActivityId id, PurchaseLimit perUserLimit, ActivityItem... items) {
        return new Activity(id, "contract sale", STARTS_AT, ENDS_AT, perUserLimit,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(items));
    }

    public static ActivityItem item(String skuId, long stock) {
        return ActivityItem.of(skuId, stock);
    }

    /** An item whose own limit overrides the activity's. */
    public static ActivityItem itemWithLimit(String skuId, long stock, int perUserLimit) {
        return new ActivityItem(new SkuId(skuId), stock, perUserLimit, 1);
    }

    /** An item whose stock the store splits into several counters. */
    public static ActivityItem segmentedItem(String skuId, long stock, int segments) {
        return new ActivityItem(new SkuId(skuId), stock, null, segments);
    }

    public static PurchaseLimit limit(int max) {
        return new PurchaseLimit(max);
    }

    public static SkuId sku(String skuId) {
        return new SkuId(skuId);
    }

    public static BuyerId buyer(String buyerId) {
        return new BuyerId(buyerId);
    }

    public static ReservationLine line(String skuId, int quantity) {
        return new ReservationLine(new SkuId(skuId), quantity);
    }

    /** A fresh reservation id in the activity, as the service would make it. */
    public static ReservationId newReservationId(ActivityId activityId) {
        return ReservationId.of(activityId, randomAlphanumeric(20));
    }

    public static ReservationRequest request(ActivityId activityId, String buyerId, String requestId, Instant at,
                                             ReservationLine... lines) {
        return new ReservationRequest(newReservationId(activityId), new BuyerId(buyerId), new RequestId(requestId),
                List.of(lines), at);
    }

    /** A request with a request id of its own, so it can never be a replay. */
    public static ReservationRequest request(ActivityId activityId, String buyerId, Instant at, ReservationLine... lines) {
        return request(activityId, buyerId, "r-" + randomAlphanumeric(16), at, lines);
    }
}
