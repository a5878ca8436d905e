package io.flashsale.adapter.web;

import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.reservation.StatusTimes;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReservationResponseTest {

    private static final Instant RESERVED_AT = Instant.parse("2030-01-01T00:00:00Z");
    private static final Instant LATER = RESERVED_AT.plusSeconds(5);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void givenAReservedReservation_whenShown_thenNoOrderIdNoFailureAndOnlyItsReservedTime() {
        JsonNode json = json(view(ReservationStatus.RESERVED, StatusTimes.reservedAt(RESERVED_AT), null));

        assertThat(json.path("status").asString()).isEqualTo("RESERVED");
        assertThat(json.has("orderId")).isFalse();
        assertThat(json.has("failureReason")).isFalse();
        assertThat(json.path("reservedAt").asString()).isEqualTo(RESERVED_AT.toString());
        assertThat(json.path("statusTimes").propertyNames()).containsExactly("reservedAt");
        assertThat(json.path("statusTimes").path("reservedAt").asString()).isEqualTo(RESERVED_AT.toString());
    }

    @Test
    void givenAPaidOrder_whenShown_thenItsOrderIdAndTheTimeOfEveryStep() {
        StatusTimes times = StatusTimes.reservedAt(RESERVED_AT).with(ReservationStatus.ORDERED, LATER)
                .with(ReservationStatus.PAID, LATER.plusSeconds(1));

        JsonNode json = json(view(ReservationStatus.PAID, times, null));

        assertThat(json.path("orderId").asString()).isEqualTo("act-1.0190abcdef");
        assertThat(json.path("statusTimes").propertyNames()).containsExactlyInAnyOrder("reservedAt", "orderedAt", "paidAt");
        assertThat(json.path("statusTimes").path("paidAt").asString()).isEqualTo(LATER.plusSeconds(1).toString());
    }

    @Test
    void givenAReservationCancelledBeforeItBecameAnOrder_whenShown_thenNoOrderIdAndItsCancellationTime() {
        JsonNode json = json(view(ReservationStatus.CANCELLED,
                StatusTimes.reservedAt(RESERVED_AT).with(ReservationStatus.CANCELLED, LATER), null));

        assertThat(json.has("orderId")).isFalse();
        assertThat(json.path("statusTimes").path("cancelledAt").asString()).isEqualTo(LATER.toString());
        assertThat(json.path("statusTimes").has("orderedAt")).isFalse();
    }

    @Test
    void givenAFailedReservation_whenShown_thenWhyAndNoOrderId() {
        JsonNode json = json(view(ReservationStatus.FAILED,
                StatusTimes.reservedAt(RESERVED_AT).with(ReservationStatus.FAILED, LATER), OrderRefusal.OUT_OF_STOCK));

        assertThat(json.path("failureReason").asString()).isEqualTo("OUT_OF_STOCK");
        assertThat(json.has("orderId")).isFalse();
        assertThat(json.path("statusTimes").path("failedAt").asString()).isEqualTo(LATER.toString());
    }

    private static ReservationView view(ReservationStatus status, StatusTimes times, OrderRefusal failureReason) {
        ActivityId activity = new ActivityId("act-1");
        Reservation reservation = new Reservation(ReservationId.of(activity, "0190abcdef"), activity,
                new BuyerId("alice"), new RequestId("r-1"), List.of(new ReservationLine(new SkuId("sku-1"), 1)),
                status, RESERVED_AT);
        return new ReservationView(reservation, times, failureReason);
    }

    private static JsonNode json(ReservationView view) {
        return JSON.readTree(JSON.writeValueAsString(ReservationResponse.of(view)));
    }
}
