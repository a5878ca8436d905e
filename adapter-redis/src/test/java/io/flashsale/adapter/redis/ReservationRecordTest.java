package io.flashsale.adapter.redis;

import io.flashsale.application.order.port.out.EventPosition;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one-field record of a reservation (ADR 70): what the scripts write reads back exactly. */
class ReservationRecordTest {

    private static final Instant AT = Instant.parse("2031-01-02T03:04:05.123456789Z");
    private static final List<ReservationLine> LINES = List.of(new ReservationLine(new SkuId("sku-1"), 2),
            new ReservationLine(new SkuId("b_2"), 1));

    private static ReservationRecord reserved(Instant at) {
        return new ReservationRecord(ReservationStatus.RESERVED, new BuyerId("ann-1"), new RequestId("req_9-x"), LINES,
                at, null, null, null);
    }

    @Test
    void givenAFreshReservation_thenItIsFiveShortPartsAndReadsBackEqual() {
        ReservationRecord record = reserved(AT);

        String stored = record.encode();

        assertThat(stored).isEqualTo("R|ann-1|req_9-x|sku-1:2,b_2:1|"
                + Long.toString(AT.getEpochSecond(), 36) + "." + Integer.toString(AT.getNano(), 36));
        assertThat(ReservationRecord.decode(stored)).isEqualTo(record);
    }

    @ParameterizedTest
    @EnumSource(ReservationStatus.class)
    void givenEveryStatus_thenItsLetterReadsBackAsIt(ReservationStatus status) {
        String stored = reserved(AT).withStatus(status).encode();

        assertThat(ReservationRecord.statusOf(stored)).isEqualTo(status);
        assertThat(ReservationRecord.decode(stored).status()).isEqualTo(status);
    }

    @Test
    void givenEveryOptionalPart_thenEachReadsBackAndAnAbsentOneInBetweenStaysEmpty() {
        Instant cancelled = Instant.parse("2031-01-02T03:04:06Z");
        var full = new ReservationRecord(ReservationStatus.CANCELLED, new BuyerId("ann"), new RequestId("r"), LINES, AT,
                new EventPosition(7, 1_234_567_890_123L), cancelled, 1_924_999_999_999L);
        var noPosition = new ReservationRecord(ReservationStatus.CANCELLED, new BuyerId("ann"), new RequestId("r"),
                LINES, AT, null, cancelled, null);
        var onlyRedriven = new ReservationRecord(ReservationStatus.RESERVED, new BuyerId("ann"), new RequestId("r"),
                LINES, AT, null, null, 5L);

        assertThat(ReservationRecord.decode(full.encode())).isEqualTo(full);
        assertThat(noPosition.encode()).contains("||").doesNotEndWith("|");
        assertThat(ReservationRecord.decode(noPosition.encode())).isEqualTo(noPosition);
        assertThat(onlyRedriven.encode()).endsWith("|||5");
        assertThat(ReservationRecord.decode(onlyRedriven.encode())).isEqualTo(onlyRedriven);
        assertThat(ReservationRecord.decode(reserved(AT).encode()).position()).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2031-01-02T03:04:05Z", "2031-01-02T03:04:05.100Z", "2031-01-02T03:04:05.000001Z",
            "2031-01-02T03:04:05.000000001Z", "1970-01-01T00:00:00Z", "2000-02-29T23:59:59.999999999Z",
            "9999-12-31T23:59:59.999999999Z", "1969-12-31T23:59:59.999999999Z", "+10000-01-01T00:00:00Z"})
    void givenAnInstant_thenItReadsBackToTheNanosecond(String iso) {
        Instant at = Instant.parse(iso);

        assertThat(ReservationRecord.decode(reserved(at).encode()).reservedAt()).isEqualTo(at);
        assertThat(ReservationRecord.unpack(ReservationRecord.pack(at))).isEqualTo(at);
    }

    @Test
    void givenAnInstantOutsideThePackedYears_thenItIsKeptAsIsoText() {
        assertThat(ReservationRecord.pack(Instant.parse("1969-12-31T23:59:59Z"))).isEqualTo("1969-12-31T23:59:59Z");
        assertThat(ReservationRecord.pack(Instant.parse("2031-01-02T03:04:05Z"))).doesNotEndWith("Z");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "X|ann|r|a:1|1.0", "R|ann|r|a:1", "R|ann|r|a:1|1.0|0:1|1.0|5|extra", "R|ann|r|a|1.0",
            "R|ann|r|a:1|1.0|nowhere"})
    void givenAValueThatIsNoRecord_thenDecodingFailsNamingIt(String value) {
        assertThatThrownBy(() -> ReservationRecord.decode(value)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not a reservation record");
    }

    @Test
    void whatARestoreLeavesOfAnOrderReadsAsNoRecordAndASingleOtherLetterIsNoRecordAtAll() {
        assertThat(ReservationRecord.read(null)).isEmpty();
        assertThat(ReservationRecord.read("C")).isEmpty();
        assertThat(ReservationRecord.read("E")).isEmpty();
        assertThat(ReservationRecord.isRestoredOrder("E")).isTrue();
        assertThat(ReservationRecord.isRestoredOrder("C|ann|k|a:1|vu5cit.7")).isFalse();
        assertThatThrownBy(() -> ReservationRecord.read("R")).isInstanceOf(IllegalStateException.class);
    }
}
