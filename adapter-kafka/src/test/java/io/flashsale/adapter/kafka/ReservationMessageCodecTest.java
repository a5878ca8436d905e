package io.flashsale.adapter.kafka;

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
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReservationMessageCodecTest {

    /** The wire format, version 1, as another service would write it. */
    private static final String WIRE = """
            {"reservationId":"spring-sale.0193a1b2c3d4","activityId":"spring-sale","buyerId":"buyer-7",
             "requestId":"req-42","lines":[{"skuId":"sku-a","quantity":1},{"skuId":"sku-b","quantity":2}],
             "reservedAt":"2026-11-29T12:00:00.123456789Z","version":1}""";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ReservationMessageCodec codec = new ReservationMessageCodec();

    @Test
    void givenAReservation_whenEncodedAndDecoded_thenItIsTheSameReservationToTheNanosecond() {
        Reservation reservation = Reservations.reserved(Reservations.newActivity());

        Reservation decoded = codec.decode(codec.encode(reservation));

        assertThat(decoded).isEqualTo(reservation);
        assertThat(decoded.reservedAt().getNano()).isEqualTo(123_456_789);
    }

    @Test
    void givenVersionOneJson_whenDecoded_thenEveryFieldLandsWhereTheWireFormatSays() {
        var activity = new ActivityId("spring-sale");

        Reservation decoded = codec.decode(WIRE);

        assertThat(decoded).isEqualTo(new Reservation(new ReservationId("spring-sale.0193a1b2c3d4"), activity,
                new BuyerId("buyer-7"), new RequestId("req-42"),
                List.of(new ReservationLine(new SkuId("sku-a"), 1), new ReservationLine(new SkuId("sku-b"), 2)),
                ReservationStatus.RESERVED, Instant.parse("2026-11-29T12:00:00.123456789Z")));
    }

    @Test
    void givenAReservation_whenEncoded_thenTheJsonHasTheWireFieldNamesAndVersion() {
        Reservation reservation = codec.decode(WIRE);

        JsonNode encoded = JSON.readTree(codec.encode(reservation));

        assertThat(encoded.propertyNames()).containsExactlyInAnyOrder(
                "reservationId", "activityId", "buyerId", "requestId", "lines", "reservedAt", "version");
        assertThat(encoded.get("reservedAt").asString()).isEqualTo("2026-11-29T12:00:00.123456789Z");
        assertThat(encoded.get("version").asInt()).isEqualTo(ReservationMessage.CURRENT_VERSION);
        assertThat(encoded.get("lines").get(1).get("skuId").asString()).isEqualTo("sku-b");
        assertThat(encoded.get("lines").get(1).get("quantity").asInt()).isEqualTo(2);
    }

    @Test
    void givenAReservationAtAWholeSecond_whenEncoded_thenReservedAtStillCarriesNineFractionDigits() {
        Reservation reservation = codec.decode(WIRE.replace("12:00:00.123456789Z", "12:00:00Z"));

        JsonNode encoded = JSON.readTree(codec.encode(reservation));

        assertThat(encoded.get("reservedAt").asString()).isEqualTo("2026-11-29T12:00:00.000000000Z");
        assertThat(codec.decode(encoded.toString())).isEqualTo(reservation);
    }

    @Test
    void givenFieldsThisReaderDoesNotKnow_whenDecoded_thenTheyAreSkipped() {
        ObjectNode newer = wire();
        newer.put("channel", "app");
        ((ObjectNode) newer.get("lines").get(0)).put("priceCents", 1999);

        assertThat(codec.decode(newer.toString())).isEqualTo(codec.decode(WIRE));
    }

    @ParameterizedTest
    @ValueSource(strings = {"reservationId", "activityId", "buyerId", "requestId", "lines", "reservedAt", "version"})
    void givenAMissingField_whenDecoded_thenTheErrorNamesIt(String field) {
        ObjectNode incomplete = wire();
        incomplete.remove(field);

        assertThatThrownBy(() -> codec.decode(incomplete.toString()))
                .isInstanceOf(MalformedReservationMessageException.class)
                .hasMessageContaining(field);
    }

    @ParameterizedTest
    @ValueSource(strings = {"reservationId", "buyerId", "lines", "reservedAt", "version"})
    void givenANullField_whenDecoded_thenItIsMalformed(String field) {
        ObjectNode withNull = wire();
        withNull.putNull(field);

        assertThatThrownBy(() -> codec.decode(withNull.toString()))
                .isInstanceOf(MalformedReservationMessageException.class)
                .hasMessageContaining(field);
    }

    @Test
    void givenALineWithoutQuantity_whenDecoded_thenTheErrorNamesIt() {
        ObjectNode incomplete = wire();
        ((ObjectNode) incomplete.get("lines").get(0)).remove("quantity");

        assertThatThrownBy(() -> codec.decode(incomplete.toString()))
                .isInstanceOf(MalformedReservationMessageException.class)
                .hasMessageContaining("quantity");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\"reservationId\":\"spring-sale.0193a1b2c3d4\"|\"reservationId\":\"no dots or spaces\"",
            "\"activityId\":\"spring-sale\"|\"activityId\":\"autumn-sale\"",
            "\"quantity\":1|\"quantity\":0",
            "\"quantity\":1|\"quantity\":1.5",
            "\"quantity\":1|\"quantity\":\"many\"",
            "2026-11-29T12:00:00.123456789Z|yesterday",
            "\"version\":1|\"version\":2",
            "\"version\":1|\"version\":0",
            "{\"skuId\":\"sku-b\",\"quantity\":2}|{\"skuId\":\"sku-a\",\"quantity\":2}"})
    void givenAFieldThatBreaksARule_whenDecoded_thenItIsMalformed(String replacement) {
        String[] fromTo = replacement.split("\\|");
        String broken = WIRE.replace(fromTo[0], fromTo[1]);
        assertThat(broken).isNotEqualTo(WIRE);

        assertThatThrownBy(() -> codec.decode(broken)).isInstanceOf(MalformedReservationMessageException.class);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"not json", "{\"reservationId\":", "[]", "42", "{} {}"})
    void givenSomethingThatIsNotAMessage_whenDecoded_thenItIsMalformed(String payload) {
        assertThatThrownBy(() -> codec.decode(payload)).isInstanceOf(MalformedReservationMessageException.class);
    }

    @Test
    void givenAReservationThatIsAlreadyOrdered_whenEncoded_thenItIsRefused() {
        Reservation ordered = Reservations.reserved(Reservations.newActivity()).transitionTo(ReservationStatus.ORDERED);

        assertThatThrownBy(() -> codec.encode(ordered)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ORDERED");
    }

    private static ObjectNode wire() {
        return (ObjectNode) JSON.readTree(WIRE);
    }
}
