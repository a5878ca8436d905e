package io.flashsale.adapter.mysql;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mapstruct.factory.Mappers;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderRowMapperTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final ReservationId ID = ReservationId.of(SALE, "0123456789abcdef0123456789abcdef");

    private final OrderRowMapper mapper = Mappers.getMapper(OrderRowMapper.class);

    private final Reservation reservation = new Reservation(ID, SALE, new BuyerId("buyer-7"), new RequestId("req-1"),
            List.of(new ReservationLine(new SkuId("zeta"), 2), new ReservationLine(new SkuId("alpha"), 1)),
            ReservationStatus.RESERVED, Instant.parse("2026-12-01T10:00:00.123456789Z"));

    @Test
    void givenAPlacedOrder_whenMappedToRows_thenColumnsHoldPlainValuesAndLinesAreNumberedInOrder() {
        Order order = Order.placed(reservation, Instant.parse("2026-12-01T10:00:01.999999Z"));

        assertThat(mapper.toRow(order)).isEqualTo(new OrderRow(ID.value(), "sale-1", "buyer-7", "req-1", "ORDERED",
                null, Instant.parse("2026-12-01T10:00:00.123Z"), Instant.parse("2026-12-01T10:00:01.999Z"),
                Instant.parse("2026-12-01T10:00:01.999Z"), null, null, null, null));
        assertThat(mapper.toLineRows(order)).containsExactly(
                new OrderLineRow(ID.value(), "zeta", 0, 2),
                new OrderLineRow(ID.value(), "alpha", 1, 1));
    }

    @Test
    void givenAFailedOrder_whenStoredAndRebuilt_thenItKeepsItsReasonAndMillisecondTimes() {
        Order failed = Order.refused(reservation, OrderRefusal.OUT_OF_STOCK, Instant.parse("2026-12-01T10:00:02.5005Z"));

        Order stored = mapper.asStored(failed);

        assertThat(mapper.toRow(failed).failureReason()).isEqualTo("OUT_OF_STOCK");
        assertThat(stored.status()).isEqualTo(ReservationStatus.FAILED);
        assertThat(stored.failureReason()).isEqualTo(OrderRefusal.OUT_OF_STOCK);
        assertThat(stored.lines()).isEqualTo(reservation.lines());
        assertThat(stored.reservedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.123Z"));
        assertThat(stored.placedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:02.500Z"));
    }

    @Test
    void givenARowBreakingADomainRule_whenMappedToTheDomain_thenTheDomainRefusesIt() {
        OrderRow failedWithoutReason = new OrderRow(ID.value(), "sale-1", "buyer-7", "req-1", "FAILED", null,
                Instant.parse("2026-12-01T10:00:00Z"), Instant.parse("2026-12-01T10:00:01Z"), null, null, null, null,
                null);

        assertThatThrownBy(() -> mapper.toOrder(failedWithoutReason, List.of(new OrderLineRow(ID.value(), "a", 0, 1))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "CANCELLED", "EXPIRED"})
    void givenAClosedOrder_whenStoredAndRebuilt_thenItsClosingMomentIsInItsStatussOwnColumnOnly(ReservationStatus status) {
        Order closed = Order.placed(reservation, Instant.parse("2026-12-01T10:00:01Z"))
                .closed(status, Instant.parse("2026-12-01T10:05:00.123456Z"));
        Instant stored = Instant.parse("2026-12-01T10:05:00.123Z");

        OrderRow row = mapper.toRow(closed);

        assertThat(row.paidAt()).isEqualTo(status == ReservationStatus.PAID ? stored : null);
        assertThat(row.cancelledAt()).isEqualTo(status == ReservationStatus.CANCELLED ? stored : null);
        assertThat(row.expiredAt()).isEqualTo(status == ReservationStatus.EXPIRED ? stored : null);
        assertThat(row.orderedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:01Z"));
        Order rebuilt = mapper.asStored(closed);
        assertThat(rebuilt.status()).isEqualTo(status);
        assertThat(rebuilt.closedAt()).isEqualTo(stored);
        assertThat(rebuilt.orderedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:01Z"));
    }

    @Test
    void givenAReservationCancelledBeforeItWasOrdered_whenStoredAndRebuilt_thenItWasNeverOrdered() {
        Order cancelled = Order.cancelledBeforeOrder(reservation, Instant.parse("2026-12-01T10:00:00.9Z"),
                Instant.parse("2026-12-01T10:00:02Z"));

        OrderRow row = mapper.toRow(cancelled);
        Order rebuilt = mapper.asStored(cancelled);

        assertThat(row.orderedAt()).isNull();
        assertThat(row.cancelledAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.9Z"));
        assertThat(rebuilt.wasOrdered()).isFalse();
        assertThat(rebuilt.closedAt()).isEqualTo(Instant.parse("2026-12-01T10:00:00.9Z"));
    }
}
