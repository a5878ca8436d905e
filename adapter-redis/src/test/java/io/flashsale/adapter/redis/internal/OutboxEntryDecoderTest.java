package io.flashsale.adapter.redis.internal;

import io.flashsale.application.port.out.OutboxEntry;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutboxEntryDecoderTest {

    private static final ActivityId SALE = new ActivityId("sale-7");
    private static final Instant RESERVED_AT = Instant.parse("2030-06-01T10:15:30.123456789Z");

    /** The fields reserve.lua writes. */
    private static Map<String, String> written() {
        var body = new HashMap<String, String>();
        body.put("type", "reserved");
        body.put("reservationId", "sale-7.tok1");
        body.put("activityId", "sale-7");
        body.put("buyerId", "alice");
        body.put("requestId", "key-1");
        body.put("lines", "b:2,a:1");
        body.put("at", Long.toString(RESERVED_AT.toEpochMilli()));
        body.put("reservedAt", RESERVED_AT.toString());
        return body;
    }

    @Test
    void aReservedEntryBecomesTheReservedReservationAtItsExactInstantKeepingTheStreamPosition() {
        OutboxEntry entry = OutboxEntryDecoder.decode(SALE, "1700000000000-3", written());

        assertThat(entry.entryId()).isEqualTo("1700000000000-3");
        assertThat(entry.reservation()).isEqualTo(new Reservation(new ReservationId("sale-7.tok1"), SALE,
                new BuyerId("alice"), new RequestId("key-1"),
                List.of(new ReservationLine(new SkuId("b"), 2), new ReservationLine(new SkuId("a"), 1)),
                ReservationStatus.RESERVED, RESERVED_AT));
    }

    @Test
    void givenAnEntryWrittenBeforeReservedAtExisted_thenTheEpochMillisOfAtAreUsed() {
        Map<String, String> body = written();
        body.remove("reservedAt");

        assertThat(OutboxEntryDecoder.decode(SALE, "1-0", body).reservation().reservedAt())
                .isEqualTo(Instant.ofEpochMilli(RESERVED_AT.toEpochMilli()));
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(strings = {"type", "reservationId", "activityId", "buyerId", "requestId", "lines", "reservedAt"})
    void givenAMissingField_thenMalformed(String field) {
        Map<String, String> body = written();
        body.remove(field);
        if (field.equals("reservedAt")) {
            body.remove("at");
        }

        assertThatThrownBy(() -> OutboxEntryDecoder.decode(SALE, "1-0", body))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1-0").hasMessageContaining("sale-7");
    }

    @Test
    void givenUnreadableValues_thenMalformed() {
        assertMalformed("type", "released");
        assertMalformed("activityId", "other-sale");
        assertMalformed("reservationId", "other-sale.tok1");
        assertMalformed("reservationId", "no dot");
        assertMalformed("lines", "a:x");
        assertMalformed("lines", "");
        assertMalformed("lines", "a:1,a:2");
        assertMalformed("buyerId", "");
        assertMalformed("reservedAt", "yesterday");
    }

    @Test
    void givenNoFieldsAtAll_thenMalformed() {
        assertThatThrownBy(() -> OutboxEntryDecoder.decode(SALE, "1-0", null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OutboxEntryDecoder.decode(SALE, "1-0", Map.of())).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertMalformed(String field, String value) {
        Map<String, String> body = written();
        body.put(field, value);
        assertThatThrownBy(() -> OutboxEntryDecoder.decode(SALE, "1-0", body)).as(field + "=" + value)
                .isInstanceOf(IllegalArgumentException.class);
    }
}
