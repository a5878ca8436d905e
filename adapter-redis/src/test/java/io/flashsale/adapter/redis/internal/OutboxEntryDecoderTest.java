package io.flashsale.adapter.redis.internal;

import io.flashsale.adapter.redis.ReservationRecord;
import io.flashsale.application.order.port.out.OutboxEntry;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OutboxEntryDecoderTest {

    private static final ActivityId SALE = new ActivityId("sale-7");
    private static final Instant RESERVED_AT = Instant.parse("2030-06-01T10:15:30.123456789Z");

    private static final Reservation RESERVATION = new Reservation(new ReservationId("sale-7.tok1"), SALE,
            new BuyerId("alice"), new RequestId("key-1"),
            List.of(new ReservationLine(new SkuId("b"), 2), new ReservationLine(new SkuId("a"), 1)),
            ReservationStatus.RESERVED, RESERVED_AT);

    /** The fields reserve.lua writes: the id and the record as the records hash keeps it (ADR 105). */
    private static Map<String, String> writtenAsTheRecord() {
        return Map.of("reservationId", "sale-7.tok1", "record",
                "R|alice|key-1|b:2,a:1|" + ReservationRecord.pack(RESERVED_AT));
    }

    /** The fields reserve.lua wrote before ADR 105: the instant packed as the record keeps it. */
    private static Map<String, String> written() {
        var body = new HashMap<String, String>();
        body.put("reservationId", "sale-7.tok1");
        body.put("buyerId", "alice");
        body.put("requestId", "key-1");
        body.put("lines", "b:2,a:1");
        body.put("reservedAt", ReservationRecord.pack(RESERVED_AT));
        return body;
    }

    /** The fields an older reserve.lua wrote, which entries written before an upgrade still hold. */
    private static Map<String, String> writtenByTheOlderVersion() {
        var body = written();
        body.put("type", "reserved");
        body.put("activityId", "sale-7");
        body.put("at", Long.toString(RESERVED_AT.toEpochMilli()));
        body.put("reservedAt", RESERVED_AT.toString());
        return body;
    }

    /** The fields reserve.lua writes for one call's reservations: each id with its record (ADR 107). */
    private static Map<String, String> writtenForOneCall() {
        var body = new LinkedHashMap<String, String>();
        body.put("sale-7.tok1", "R|alice|key-1|b:2,a:1|" + ReservationRecord.pack(RESERVED_AT));
        body.put("sale-7.tok2", "R|bob|key-9|a:1|" + ReservationRecord.pack(RESERVED_AT.plusNanos(1)));
        return body;
    }

    @Test
    void anEntryOfOneCallBecomesItsReservationsInOrderSharingTheStreamPosition() {
        List<OutboxEntry> entries = OutboxEntryDecoder.decodeAll(SALE, "1700000000000-5", writtenForOneCall());

        assertThat(entries).extracting(OutboxEntry::entryId).containsOnly("1700000000000-5");
        assertThat(entries).extracting(OutboxEntry::reservation).containsExactly(RESERVATION,
                new Reservation(new ReservationId("sale-7.tok2"), SALE, new BuyerId("bob"), new RequestId("key-9"),
                        List.of(new ReservationLine(new SkuId("a"), 1)), ReservationStatus.RESERVED,
                        RESERVED_AT.plusNanos(1)));
        assertThat(OutboxEntryDecoder.reservationIds(writtenForOneCall())).containsExactly("sale-7.tok1", "sale-7.tok2");
    }

    @Test
    void everyShapeIsReadThroughDecodeAllAndNamesItsReservation() {
        for (Map<String, String> body : List.of(written(), writtenAsTheRecord(), writtenByTheOlderVersion())) {
            assertThat(OutboxEntryDecoder.decodeAll(SALE, "1-0", body)).extracting(OutboxEntry::reservation)
                    .as(body.toString()).containsExactly(RESERVATION);
            assertThat(OutboxEntryDecoder.reservationIds(body)).as(body.toString()).containsExactly("sale-7.tok1");
        }
    }

    @Test
    void givenAnEntryOfOneCallWithAnyReservationUnreadable_thenTheWholeEntryIsMalformed() {
        List<Map<String, String>> torn = new java.util.ArrayList<>();
        for (var bad : List.of(Map.entry("sale-7.tok3", "C|carl|k|a:1|" + ReservationRecord.pack(RESERVED_AT)),
                Map.entry("sale-8.tok3", "R|carl|k|a:1|" + ReservationRecord.pack(RESERVED_AT)),
                Map.entry("sale-7.tok3", "R|carl"), Map.entry("sale-7", "R|carl|k|a:1|" + ReservationRecord.pack(RESERVED_AT)))) {
            var body = new LinkedHashMap<>(writtenForOneCall());
            body.put(bad.getKey(), bad.getValue());
            torn.add(body);
        }
        torn.add(Map.of());
        for (Map<String, String> body : torn) {
            assertThatThrownBy(() -> OutboxEntryDecoder.decodeAll(SALE, "1-0", body)).as(body.toString())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed")
                    .hasMessageContaining("1-0");
        }
    }

    @Test
    void aReservedEntryBecomesTheReservedReservationAtItsExactInstantKeepingTheStreamPosition() {
        OutboxEntry entry = OutboxEntryDecoder.decode(SALE, "1700000000000-3", written());

        assertThat(written().get("reservedAt")).doesNotEndWith("Z");
        assertThat(entry.entryId()).isEqualTo("1700000000000-3");
        assertThat(entry.reservation()).isEqualTo(RESERVATION);
    }

    @Test
    void anEntryOfTheRecordBecomesTheSameReservation() {
        assertThat(ReservationRecord.of(RESERVATION).encode()).isEqualTo(writtenAsTheRecord().get("record"));
        OutboxEntry entry = OutboxEntryDecoder.decode(SALE, "1700000000000-4", writtenAsTheRecord());

        assertThat(entry.entryId()).isEqualTo("1700000000000-4");
        assertThat(entry.reservation()).isEqualTo(RESERVATION);
    }

    @Test
    void givenAnEntryWhoseRecordIsNotAnAcceptedReservation_thenItIsMalformed() {
        for (String record : List.of("C|alice|key-1|b:2,a:1|" + ReservationRecord.pack(RESERVED_AT), "R|alice|key-1",
                "R|alice|key-1|b:x|" + ReservationRecord.pack(RESERVED_AT), "")) {
            assertThatThrownBy(() -> OutboxEntryDecoder.decode(SALE, "1-0",
                    Map.of("reservationId", "sale-7.tok1", "record", record)))
                    .as(record).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("malformed");
        }
    }

    @Test
    void givenAnEntryOfTheOlderShape_thenTheSameReservation() {
        assertThat(OutboxEntryDecoder.decode(SALE, "1-0", writtenByTheOlderVersion()).reservation())
                .isEqualTo(RESERVATION);
    }

    @Test
    void givenAnEntryWrittenBeforeReservedAtExisted_thenTheEpochMillisOfAtAreUsed() {
        Map<String, String> body = writtenByTheOlderVersion();
        body.remove("reservedAt");

        assertThat(OutboxEntryDecoder.decode(SALE, "1-0", body).reservation().reservedAt())
                .isEqualTo(Instant.ofEpochMilli(RESERVED_AT.toEpochMilli()));
    }

    @ParameterizedTest(name = "without {0}")
    @ValueSource(strings = {"reservationId", "buyerId", "requestId", "lines", "reservedAt"})
    void givenAMissingField_thenMalformed(String field) {
        for (Map<String, String> body : List.of(written(), writtenByTheOlderVersion())) {
            body.remove(field);
            if (field.equals("reservedAt")) {
                body.remove("at");
            }

            assertThatThrownBy(() -> OutboxEntryDecoder.decode(SALE, "1-0", body)).as(body.toString())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("1-0").hasMessageContaining("sale-7");
        }
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
        assertMalformed("reservedAt", "tcl3xy");
        assertMalformed("reservedAt", "2030-06-01T10:15:30");
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
