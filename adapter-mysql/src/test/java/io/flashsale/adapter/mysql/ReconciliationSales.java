package io.flashsale.adapter.mysql;

import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Sales and orders made straight in MySQL for the adapter's reconciliation tests; every id is new. */
final class ReconciliationSales {

    static final SkuId A = new SkuId("a");
    static final SkuId B = new SkuId("b");

    private final MysqlActivityRepository activities;
    private final MysqlOrderRepository orders;
    final Instant era = TestEras.next();

    ReconciliationSales(MysqlActivityRepository activities, MysqlOrderRepository orders) {
        this.activities = activities;
        this.orders = orders;
    }

    /** An open sale (in its era) of SKUs a and b with these stocks, a limit of 5 per buyer. */
    Activity sale(long stockOfA, long stockOfB) {
        return sale(new ActivityId("rec-" + token().substring(0, 16)), SaleSlices.ONE, stockOfA, stockOfB);
    }

    /** As {@link #sale(long, long)}, with this id, in {@code slices} slices (ADR 109). */
    Activity sale(ActivityId id, SaleSlices slices, long stockOfA, long stockOfB) {
        Activity activity = new Activity(id, "Reconcile " + id, era, era.plus(Duration.ofHours(6)), new PurchaseLimit(5),
                Duration.ofMinutes(10), List.of(new ActivityItem(A, stockOfA, null, 1),
                new ActivityItem(B, stockOfB, null, 2)), false, slices);
        activities.add(activity);
        return activity;
    }

    Reservation reservation(ActivityId sale, String buyer, ReservationLine... lines) {
        return reservation(ReservationId.of(sale, token().substring(0, 24)), buyer, lines);
    }

    /** A reservation made in the slice: its id names the slice when the sale has more than one. */
    Reservation reservation(SaleSlice slice, String buyer, ReservationLine... lines) {
        return reservation(ReservationId.of(slice, token().substring(0, 24)), buyer, lines);
    }

    private Reservation reservation(ReservationId id, String buyer, ReservationLine... lines) {
        return new Reservation(id, id.activityId(), new BuyerId(buyer), new RequestId("k-" + token().substring(0, 8)),
                List.of(lines), ReservationStatus.RESERVED, era.plusSeconds(5));
    }

    OrderPlacement place(Reservation reservation) {
        return orders.place(reservation, era.plusSeconds(6));
    }

    static ReservationLine line(SkuId sku, int quantity) {
        return new ReservationLine(sku, quantity);
    }

    static String token() {
        return UUID.randomUUID().toString().replace("-", "");
    }
}
