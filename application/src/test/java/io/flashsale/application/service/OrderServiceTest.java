package io.flashsale.application.service;

import io.flashsale.application.port.out.OrderPipelineMetrics;
import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class OrderServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final Instant RESERVED_AT = Instant.parse("2030-06-01T10:15:30.123Z");
    private static final Instant NOW = Instant.parse("2030-06-01T10:15:31.5Z");
    private static final Reservation RESERVATION = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE,
            new BuyerId("alice"), new RequestId("k-1"), List.of(new ReservationLine(new SkuId("a"), 2)),
            ReservationStatus.RESERVED, RESERVED_AT);

    @Mock
    private OrderRepository orders;
    @Mock
    private StockReservationPort stock;
    @Mock
    private OrderPipelineMetrics metrics;
    private OrderService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new OrderService(orders, stock, metrics, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private void databaseAnswers(OrderPlacement placement) {
        when(orders.place(RESERVATION, NOW)).thenReturn(placement);
    }

    @Test
    void givenTheDatabasePlacesTheOrder_thenTheHotStoreConfirmsItAfterwardsAndThePlacementIsRecorded() {
        var placed = new OrderPlacement.Placed(Order.placed(RESERVATION, NOW));
        databaseAnswers(placed);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(placed);

        InOrder order = inOrder(orders, stock);
        order.verify(orders).place(RESERVATION, NOW);
        order.verify(stock).confirm(RESERVATION.id());
        verify(metrics).recorded(placed);
        verifyNoMoreInteractions(stock, metrics);
    }

    @Test
    void givenTheDatabaseRefuses_thenTheHotStoreMarksItFailedWithoutConfirmingAndTheRefusalIsRecorded() {
        var refused = new OrderPlacement.Refused(Order.refused(RESERVATION, OrderRefusal.OUT_OF_STOCK, NOW));
        databaseAnswers(refused);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(refused);

        verify(stock).fail(RESERVATION.id());
        verify(metrics).recorded(refused);
        verifyNoMoreInteractions(stock, metrics);
    }

    @Test
    void givenAnEarlierDeliveryPlacedTheOrder_thenTheHotStoreIsConfirmedAgainInCaseThatDeliveryDiedBeforeIt() {
        var already = new OrderPlacement.AlreadyPlaced(Order.placed(RESERVATION, NOW.minusSeconds(5)));
        databaseAnswers(already);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(already);

        verify(stock).confirm(RESERVATION.id());
        verify(metrics).recorded(already);
        verifyNoMoreInteractions(stock, metrics);
    }

    @Test
    void givenAnEarlierDeliveryWasRefused_thenTheHotStoreIsMarkedFailedAgainAndNeverConfirmed() {
        var already = new OrderPlacement.AlreadyPlaced(
                Order.refused(RESERVATION, OrderRefusal.LIMIT_EXCEEDED, NOW.minusSeconds(5)));
        databaseAnswers(already);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(already);

        verify(stock).fail(RESERVATION.id());
        verify(metrics).recorded(already);
        verifyNoMoreInteractions(stock, metrics);
    }

    @Test
    void givenTheDatabaseFails_thenTheErrorPropagatesAndTheHotStoreIsNotTouched() {
        var databaseDown = new IllegalStateException("connection refused");
        when(orders.place(RESERVATION, NOW)).thenThrow(databaseDown);

        assertThatThrownBy(() -> service.placeOrder(RESERVATION)).isSameAs(databaseDown);

        verifyNoInteractions(stock, metrics);
    }

    @Test
    void givenTheHotStoreFailsAfterTheCommit_thenTheErrorPropagatesSoTheDeliveryIsRetried() {
        var placed = new OrderPlacement.Placed(Order.placed(RESERVATION, NOW));
        databaseAnswers(placed);
        var redisDown = new IllegalStateException("redis unavailable");
        when(stock.confirm(RESERVATION.id())).thenThrow(redisDown);

        assertThatThrownBy(() -> service.placeOrder(RESERVATION)).isSameAs(redisDown);

        verify(metrics).recorded(placed);
    }
}
