package io.flashsale.application.order.service;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.List;

/** One buyer's reservation in every status, for the payment, cancellation and expiry tests. */
final class LifecycleFixtures {

    static final ActivityId SALE = new ActivityId("summer-sale");
    static final BuyerId ALICE = new BuyerId("alice");
    static final BuyerId MALLORY = new BuyerId("mallory");
    static final ReservationId ID = new ReservationId("summer-sale.01JTOKEN");
    static final Instant RESERVED_AT = Instant.parse("2030-06-01T10:15:30.123Z");
    static final Instant PLACED_AT = Instant.parse("2030-06-01T10:15:31Z");
    static final Instant NOW = Instant.parse("2030-06-01T10:20:00Z");
    static final Reservation RESERVED = new Reservation(ID, SALE, ALICE, new RequestId("k-1"),
            List.of(new ReservationLine(new SkuId("a"), 2)), ReservationStatus.RESERVED, RESERVED_AT);

    private LifecycleFixtures() {
    }

    static Reservation held(ReservationStatus status) {
        return new Reservation(ID, SALE, ALICE, RESERVED.requestId(), RESERVED.lines(), status, RESERVED_AT);
    }

    static Order ordered() {
        return Order.placed(RESERVED, PLACED_AT);
    }

    /** An order that became an order and then moved to {@code status}; FAILED is a refused one. */
    static Order order(ReservationStatus status) {
        return switch (status) {
            case ORDERED -> ordered();
            case PAID, CANCELLED, EXPIRED -> ordered().closed(status, PLACED_AT.plusSeconds(60));
            case FAILED -> Order.refused(RESERVED, OrderRefusal.OUT_OF_STOCK, PLACED_AT);
            case RESERVED -> throw new IllegalArgumentException("no order is RESERVED");
        };
    }
}
