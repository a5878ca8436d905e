package io.flashsale.application.order.service;

import io.flashsale.application.order.model.OrderBatchFailedException;
import io.flashsale.application.order.port.out.HotStoreSettlementPort.HeldStatus;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
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
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class BatchOrderServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final ActivityId OTHER = new ActivityId("winter-sale");
    private static final Instant RESERVED_AT = Instant.parse("2030-06-01T10:15:30Z");
    private static final Instant NOW = Instant.parse("2030-06-01T10:15:31.5Z");

    @Mock
    private OrderPlacementPort orders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private RestoreQueuePort restoreQueue;
    @Mock
    private HotStoreSettlementPort hotStore;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    @Mock
    private OrderPipelineMetricsPort metrics;
    private BatchOrderService service;

    @BeforeEach
    void setUp() {
        service = new BatchOrderService(orders, transitions, restoreQueue, hotStore, heldReservations,
                                        reservationMoves, metrics, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void givenBuyersQueueing_thenTheBatchIsHeldBackBeforeTheDatabaseIsAskedAndTheHoldIsReported() {
        Reservation a1 = reservation(SALE, "a1");
        AtomicLong nanos = new AtomicLong();
        BuyerCrowd buyers = new BuyerCrowd(() -> 1.0, 0.9, Duration.ofMillis(20), nanos::get);
        buyers.arrived();
        OrdersGiveWay giveWay = new OrdersGiveWay(buyers, Duration.ofSeconds(30), Duration.ofMillis(20),
                Clock.fixed(NOW, ZoneOffset.UTC), nanos::get, pause -> {
                    verify(orders, never()).placeAll(any(), any());
                    nanos.addAndGet(pause.toNanos()); // no buyer arrives after the first: gone after a quiet look
                });
        service = new BatchOrderService(orders, transitions, restoreQueue, hotStore, heldReservations,
                                        reservationMoves, metrics, Clock.fixed(NOW, ZoneOffset.UTC), giveWay);
        when(hotStore.statuses(any(), any())).thenReturn(Map.of());
        when(orders.placeAll(List.of(a1), NOW)).thenReturn(List.of(placed(a1)));
        when(hotStore.settle(any(), any(), any())).thenReturn(Map.of());

        service.placeOrders(List.of(a1));

        verify(orders).placeAll(List.of(a1), NOW);
        verify(metrics).gaveWay(Duration.ofMillis(40));
    }

    @Test
    void givenABatchOfTwoSales_thenOneHotStoreReadAndOneSettleCallPerSaleAndOneDatabaseCallForAll() {
        Reservation a1 = reservation(SALE, "a1");
        Reservation a2 = reservation(SALE, "a2");
        Reservation b1 = reservation(OTHER, "b1");
        when(hotStore.statuses(any(), any())).thenReturn(Map.of());
        when(orders.placeAll(List.of(a1, a2, b1), NOW)).thenReturn(List.of(placed(a1),
                refused(a2, OrderRefusal.OUT_OF_STOCK), placed(b1)));
        when(hotStore.settle(any(), any(), any())).thenReturn(Map.of());

        List<OrderPlacement> placements = service.placeOrders(List.of(a1, a2, b1));

        assertThat(placements).extracting(p -> p.getClass().getSimpleName())
                .containsExactly("Placed", "Refused", "Placed");
        InOrder order = inOrder(hotStore, orders, transitions, restoreQueue);
        order.verify(hotStore).statuses(SALE, List.of(a1.id(), a2.id()));
        order.verify(hotStore).statuses(OTHER, List.of(b1.id()));
        order.verify(orders).placeAll(List.of(a1, a2, b1), NOW);
        order.verify(hotStore).settle(SALE, List.of(a1.id()), List.of(a2.id()));
        order.verify(hotStore).settle(OTHER, List.of(b1.id()), List.of());
        verify(metrics).batchSettled(3);
        verify(metrics, times(2)).ordered(Duration.between(RESERVED_AT, NOW));
    }

    @Test
    void givenTheSameReservationTwiceInABatch_thenItIsPlacedOnceAndTheRepeatAnswersAlreadyPlaced() {
        Reservation once = reservation(SALE, "t1");
        when(hotStore.statuses(any(), any())).thenReturn(Map.of());
        when(orders.placeAll(List.of(once), NOW)).thenReturn(List.of(placed(once)));
        when(hotStore.settle(any(), any(), any())).thenReturn(Map.of());

        List<OrderPlacement> placements = service.placeOrders(List.of(once, once));

        assertThat(placements.get(0)).isInstanceOf(OrderPlacement.Placed.class);
        assertThat(placements.get(1)).isInstanceOf(OrderPlacement.AlreadyPlaced.class);
        verify(hotStore).settle(SALE, List.of(once.id()), List.of());
    }

    @Test
    void givenAReservationTheBuyerCancelledBeforeTheBatch_thenRecordedAsCancelledAndNeverPlaced() {
        Reservation cancelled = reservation(SALE, "c1");
        Instant cancelledAt = NOW.minusMillis(300);
        when(hotStore.statuses(SALE, List.of(cancelled.id())))
                .thenReturn(Map.of(cancelled.id(), new HeldStatus(ReservationStatus.CANCELLED, cancelledAt)));
        Order recorded = Order.cancelledBeforeOrder(cancelled, cancelledAt, NOW);
        when(orders.recordCancelledBeforeOrder(cancelled, cancelledAt, NOW))
                .thenReturn(new OrderPlacement.CancelledBeforeOrder(recorded));
        when(orders.placeAll(List.of(), NOW)).thenReturn(List.of());
        when(hotStore.settle(SALE, List.of(), List.of())).thenReturn(Map.of());

        assertThat(service.placeOrders(List.of(cancelled)).getFirst())
                .isInstanceOf(OrderPlacement.CancelledBeforeOrder.class);
    }

    @Test
    void givenAReservationCancelledBetweenTheLookAndTheCommit_thenTheFreshOrderIsCancelledInTheDatabase() {
        Reservation raced = reservation(SALE, "r1");
        Instant cancelledAt = NOW.minusMillis(100);
        when(hotStore.statuses(any(), any())).thenReturn(Map.of());
        when(orders.placeAll(List.of(raced), NOW)).thenReturn(List.of(placed(raced)));
        when(hotStore.settle(SALE, List.of(raced.id()), List.of()))
                .thenReturn(Map.of(raced.id(), ReservationStatus.CANCELLED));
        when(heldReservations.cancelledAt(raced.id())).thenReturn(Optional.of(cancelledAt));

        service.placeOrders(List.of(raced));

        verify(transitions).cancelReleased(raced.id(), cancelledAt);
    }

    @Test
    void givenARedeliveredBatch_thenOrderedOnesAreConfirmedAndFailedOnesFailedInTheSameSettleCall() {
        Reservation ordered = reservation(SALE, "o1");
        Reservation failed = reservation(SALE, "f1");
        when(hotStore.statuses(any(), any())).thenReturn(Map.of());
        when(orders.placeAll(List.of(ordered, failed), NOW)).thenReturn(List.of(
                new OrderPlacement.AlreadyPlaced(Order.placed(ordered, NOW)),
                new OrderPlacement.AlreadyPlaced(Order.refused(failed, OrderRefusal.LIMIT_EXCEEDED, NOW))));
        when(hotStore.settle(SALE, List.of(ordered.id()), List.of(failed.id()))).thenReturn(Map.of());

        service.placeOrders(List.of(ordered, failed));

        verify(hotStore).settle(SALE, List.of(ordered.id()), List.of(failed.id()));
        verify(reservationMoves, never()).fail(any());
        verify(metrics, never()).ordered(any());
    }

    @Test
    void givenTheCatchUpOfAClosedOrderFails_thenTheBatchReportsItsIndexAndEverythingBeforeItIsDone() {
        Reservation fine = reservation(SALE, "ok1");
        Reservation paid = reservation(SALE, "p1");
        Order paidOrder = Order.placed(paid, NOW).closed(ReservationStatus.PAID, NOW);
        when(hotStore.statuses(any(), any())).thenReturn(Map.of());
        when(orders.placeAll(List.of(fine, paid), NOW)).thenReturn(List.of(placed(fine),
                new OrderPlacement.AlreadyPlaced(paidOrder)));
        when(hotStore.settle(any(), any(), any())).thenReturn(Map.of());
        when(reservationMoves.confirm(paid.id())).thenThrow(new IllegalStateException("redis went away"));

        assertThatThrownBy(() -> service.placeOrders(List.of(fine, paid)))
                .isInstanceOfSatisfying(OrderBatchFailedException.class, e -> assertThat(e.index()).isEqualTo(1));
        verify(hotStore).settle(SALE, List.of(fine.id()), List.of());
    }

    private static Reservation reservation(ActivityId sale, String token) {
        return new Reservation(ReservationId.of(sale, token), sale, new BuyerId("buyer-" + token),
                new RequestId("k-" + token), List.of(new ReservationLine(new SkuId("a"), 1)),
                ReservationStatus.RESERVED, RESERVED_AT);
    }

    private static OrderPlacement placed(Reservation reservation) {
        return new OrderPlacement.Placed(Order.placed(reservation, NOW));
    }

    private static OrderPlacement refused(Reservation reservation, OrderRefusal reason) {
        return new OrderPlacement.Refused(Order.refused(reservation, reason, NOW));
    }
}
