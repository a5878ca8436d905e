package io.flashsale.adapter.kafka;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/** Accepted reservations for the tests: unique ids, two lines, a reservedAt with nanoseconds. */
final class Reservations {

    private static final AtomicLong SEQUENCE = new AtomicLong();

    private Reservations() {
    }

    static ActivityId newActivity() {
        return new ActivityId("kafka-it-" + UUID.randomUUID().toString().substring(0, 8));
    }

    static Reservation reserved(ActivityId activityId) {
        long n = SEQUENCE.incrementAndGet();
        String token = UUID.randomUUID().toString().replace("-", "");
        return new Reservation(ReservationId.of(activityId, token), activityId, new BuyerId("buyer-" + n),
                new RequestId("request-" + n),
                List.of(new ReservationLine(new SkuId("sku-a"), 1), new ReservationLine(new SkuId("sku-b"), 3)),
                ReservationStatus.RESERVED, Instant.parse("2026-11-29T12:00:00.123456789Z").plusSeconds(n));
    }
}
