package io.flashsale.domain.order;

import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.IllegalTransitionException;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.reservation.StatusTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OrderTest {

    private static final ActivityId SALE = new ActivityId("sale-1");
    private static final Instant RESERVED_AT = Instant.parse("2030-01-01T10:00:00Z");
    private static final Instant PLACED_AT = Instant.parse("2030-01-01T10:00:01Z");
    private static final Instant LATER = Instant.parse("2030-01-01T10:07:00Z");
    private static final Reservation RESERVATION = new Reservation(ReservationId.of(SALE, "tok1"), SALE,
            new BuyerId("alice"), new RequestId("req-1"), List.of(new ReservationLine(new SkuId("a"), 2)),
            ReservationStatus.RESERVED, RESERVED_AT);

    private static Order withTimes(ReservationStatus status, Instant orderedAt, Instant closedAt) {
        return new Order(RESERVATION.id(), RESERVATION.buyerId(), RESERVATION.requestId(), RESERVATION.lines(), status,
                status == ReservationStatus.FAILED ? OrderRefusal.OUT_OF_STOCK : null, RESERVED_AT, PLACED_AT,
                orderedAt, closedAt);
    }

    @Test
    void givenAPlacedOrder_thenItWasOrderedWhenPlacedAndIsNotClosed() {
        Order order = Order.placed(RESERVATION, PLACED_AT);

        assertThat(order.wasOrdered()).isTrue();
        assertThat(order.orderedAt()).isEqualTo(PLACED_AT);
        assertThat(order.closedAt()).isNull();
        assertThat(order.times()).isEqualTo(new StatusTimes(RESERVED_AT, PLACED_AT, null, null, null, null));
    }

    @Test
    void givenARefusedOrder_thenItFailedWhenPlacedAndWasNeverOrdered() {
        Order order = Order.refused(RESERVATION, OrderRefusal.LIMIT_EXCEEDED, PLACED_AT);

        assertThat(order.wasOrdered()).isFalse();
        assertThat(order.times()).isEqualTo(new StatusTimes(RESERVED_AT, null, null, null, null, PLACED_AT));
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "CANCELLED", "EXPIRED"})
    void givenOrdered_whenClosed_thenTheStatusAndItsMomentAreSetAndTheRestStays(ReservationStatus target) {
        Order ordered = Order.placed(RESERVATION, PLACED_AT);

        Order closed = ordered.closed(target, LATER);

        assertThat(closed.status()).isEqualTo(target);
        assertThat(closed.closedAt()).isEqualTo(LATER);
        assertThat(closed.orderedAt()).isEqualTo(PLACED_AT);
        assertThat(closed.times()).isEqualTo(StatusTimes.reservedAt(RESERVED_AT)
                .with(ReservationStatus.ORDERED, PLACED_AT).with(target, LATER));
        assertThat(closed.toReservation()).isEqualTo(RESERVATION.transitionTo(ReservationStatus.ORDERED)
                .transitionTo(target));
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "CANCELLED", "EXPIRED"})
    void givenAClosedOrder_whenClosedAgainAnyWay_thenIllegalTransition(ReservationStatus first) {
        Order closed = Order.placed(RESERVATION, PLACED_AT).closed(first, LATER);

        for (ReservationStatus target : ReservationStatus.values()) {
            assertThatThrownBy(() -> closed.closed(target, LATER)).as(first + " -> " + target)
                    .isInstanceOf(IllegalTransitionException.class);
        }
    }

    @Test
    void givenOrdered_whenClosedAsFailedOrBackToReserved_thenIllegalTransition() {
        Order ordered = Order.placed(RESERVATION, PLACED_AT);

        assertThatThrownBy(() -> ordered.closed(ReservationStatus.FAILED, LATER))
                .isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> ordered.closed(ReservationStatus.RESERVED, LATER))
                .isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> Order.refused(RESERVATION, OrderRefusal.OUT_OF_STOCK, PLACED_AT)
                .closed(ReservationStatus.CANCELLED, LATER)).isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void givenCancelledBeforeOrder_thenCancelledAtItsMomentNeverOrderedAndFinal() {
        Order cancelled = Order.cancelledBeforeOrder(RESERVATION, LATER, LATER.plusSeconds(2));

        assertThat(cancelled.status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(cancelled.wasOrdered()).isFalse();
        assertThat(cancelled.placedAt()).isEqualTo(LATER.plusSeconds(2));
        assertThat(cancelled.times()).isEqualTo(new StatusTimes(RESERVED_AT, null, null, LATER, null, null));
        assertThatThrownBy(() -> cancelled.closed(ReservationStatus.PAID, LATER))
                .isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void theShortConstructorMakesOrderedOrdersOrderedWhenPlacedAndFailedOnesNeverOrdered() {
        Order ordered = new Order(RESERVATION.id(), RESERVATION.buyerId(), RESERVATION.requestId(), RESERVATION.lines(),
                ReservationStatus.ORDERED, null, RESERVED_AT, PLACED_AT);
        Order failed = new Order(RESERVATION.id(), RESERVATION.buyerId(), RESERVATION.requestId(), RESERVATION.lines(),
                ReservationStatus.FAILED, OrderRefusal.UNKNOWN_ITEM, RESERVED_AT, PLACED_AT);

        assertThat(ordered).isEqualTo(Order.placed(RESERVATION, PLACED_AT));
        assertThat(failed).isEqualTo(Order.refused(RESERVATION, OrderRefusal.UNKNOWN_ITEM, PLACED_AT));
    }

    @Test
    void timesThatContradictTheStatusAreRefused() {
        List<Runnable> contradictions = List.of(
                () -> withTimes(ReservationStatus.ORDERED, null, null),
                () -> withTimes(ReservationStatus.ORDERED, PLACED_AT, LATER),
                () -> withTimes(ReservationStatus.PAID, PLACED_AT, null),
                () -> withTimes(ReservationStatus.PAID, null, LATER),
                () -> withTimes(ReservationStatus.EXPIRED, null, LATER),
                () -> withTimes(ReservationStatus.CANCELLED, PLACED_AT, null),
                () -> withTimes(ReservationStatus.FAILED, PLACED_AT, null),
                () -> withTimes(ReservationStatus.RESERVED, PLACED_AT, null));

        for (Runnable contradiction : contradictions) {
            assertThatThrownBy(contradiction::run).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(withTimes(ReservationStatus.CANCELLED, null, LATER).wasOrdered()).isFalse();
        assertThat(withTimes(ReservationStatus.CANCELLED, PLACED_AT, LATER).wasOrdered()).isTrue();
    }
}
