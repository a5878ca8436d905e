package io.flashsale.application.order.service;

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
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static io.flashsale.application.order.service.RestoreFixtures.restoring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class OrderServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final Instant RESERVED_AT = Instant.parse("2030-06-01T10:15:30.123Z");
    private static final Instant NOW = Instant.parse("2030-06-01T10:15:31.5Z");
    private static final Instant CANCELLED_AT = Instant.parse("2030-06-01T10:15:31.2Z");
    private static final Reservation RESERVATION = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE,
            new BuyerId("alice"), new RequestId("k-1"), List.of(new ReservationLine(new SkuId("a"), 2)),
            ReservationStatus.RESERVED, RESERVED_AT);
    private static final ReservationId ID = RESERVATION.id();

    @Mock
    private OrderPlacementPort orders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private RestoreQueuePort restoreQueue;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    @Mock
    private OrderPipelineMetricsPort metrics;
    private OrderService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new OrderService(orders, transitions, restoreQueue, heldReservations, reservationMoves, metrics,
                                   Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private void hotStoreSays(ReservationStatus status) {
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(inStatus(status)));
    }

    private static Reservation inStatus(ReservationStatus status) {
        return new Reservation(ID, SALE, RESERVATION.buyerId(), RESERVATION.requestId(), RESERVATION.lines(), status,
                RESERVED_AT);
    }

    private void databaseAnswers(OrderPlacement placement) {
        when(orders.place(RESERVATION, NOW)).thenReturn(placement);
    }

    @Test
    void givenTheDatabasePlacesTheOrder_thenTheHotStoreConfirmsItAfterwardsAndThePlacementIsRecorded() {
        hotStoreSays(ReservationStatus.RESERVED);
        var placed = new OrderPlacement.Placed(Order.placed(RESERVATION, NOW));
        databaseAnswers(placed);
        when(reservationMoves.confirm(ID)).thenReturn(true);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(placed);

        InOrder order = inOrder(heldReservations, reservationMoves, orders, transitions, restoreQueue);
        order.verify(heldReservations).findReservation(ID);
        order.verify(orders).place(RESERVATION, NOW);
        order.verify(reservationMoves).confirm(ID);
        verify(metrics).recorded(placed);
        verifyNoMoreInteractions(heldReservations, reservationMoves, metrics, orders, transitions, restoreQueue);
    }

    @Test
    void givenTheDatabaseRefuses_thenTheHotStoreMarksItFailedWithoutConfirmingAndTheRefusalIsRecorded() {
        hotStoreSays(ReservationStatus.RESERVED);
        var refused = new OrderPlacement.Refused(Order.refused(RESERVATION, OrderRefusal.OUT_OF_STOCK, NOW));
        databaseAnswers(refused);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(refused);

        verify(reservationMoves).fail(ID);
        verify(reservationMoves, never()).confirm(any());
        verify(metrics).recorded(refused);
    }

    @Test
    void givenAnEarlierDeliveryPlacedTheOrder_thenTheHotStoreIsConfirmedAgainInCaseThatDeliveryDiedBeforeIt() {
        hotStoreSays(ReservationStatus.ORDERED);
        var already = new OrderPlacement.AlreadyPlaced(Order.placed(RESERVATION, NOW.minusSeconds(5)));
        databaseAnswers(already);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(already);

        verify(reservationMoves).confirm(ID);
        verify(metrics).recorded(already);
        verify(transitions, never()).cancelReleased(any(), any());
    }

    @Test
    void givenAnEarlierDeliveryWasRefused_thenTheHotStoreIsMarkedFailedAgainAndNeverConfirmed() {
        hotStoreSays(ReservationStatus.FAILED);
        var already = new OrderPlacement.AlreadyPlaced(
                Order.refused(RESERVATION, OrderRefusal.LIMIT_EXCEEDED, NOW.minusSeconds(5)));
        databaseAnswers(already);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(already);

        verify(reservationMoves).fail(ID);
        verify(reservationMoves, never()).confirm(any());
        verify(metrics).recorded(already);
    }

    @Test
    void givenTheDatabaseFails_thenTheErrorPropagatesAndNoStockMovesAndNothingIsRecorded() {
        hotStoreSays(ReservationStatus.RESERVED);
        var databaseDown = new IllegalStateException("connection refused");
        when(orders.place(RESERVATION, NOW)).thenThrow(databaseDown);

        assertThatThrownBy(() -> service.placeOrder(RESERVATION)).isSameAs(databaseDown);

        verify(heldReservations).findReservation(ID);
        verifyNoMoreInteractions(heldReservations, reservationMoves);
        verifyNoInteractions(metrics);
    }

    @Test
    void givenTheHotStoreFailsAfterTheCommit_thenTheErrorPropagatesSoTheDeliveryIsRetried() {
        hotStoreSays(ReservationStatus.RESERVED);
        var placed = new OrderPlacement.Placed(Order.placed(RESERVATION, NOW));
        databaseAnswers(placed);
        var redisDown = new IllegalStateException("redis unavailable");
        when(reservationMoves.confirm(ID)).thenThrow(redisDown);

        assertThatThrownBy(() -> service.placeOrder(RESERVATION)).isSameAs(redisDown);

        verify(metrics).recorded(placed);
    }

    // ---- the buyer cancelled while the hot store held the reservation ----

    @Test
    void givenTheBuyerCancelledBeforeTheDelivery_thenItIsRecordedAsCancelledAtThatMomentAndNeverPlaced() {
        hotStoreSays(ReservationStatus.CANCELLED);
        when(heldReservations.cancelledAt(ID)).thenReturn(Optional.of(CANCELLED_AT));
        var cancelled = new OrderPlacement.CancelledBeforeOrder(Order.cancelledBeforeOrder(RESERVATION, CANCELLED_AT, NOW));
        when(orders.recordCancelledBeforeOrder(RESERVATION, CANCELLED_AT, NOW)).thenReturn(cancelled);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(cancelled);

        verify(orders, never()).place(any(), any());
        verify(reservationMoves, never()).confirm(any());
        verify(reservationMoves, never()).release(any());
        verify(reservationMoves, never()).release(any(), any());
        verify(metrics).recorded(cancelled);
    }

    @Test
    void givenACancelledReservationWithoutAKnownMoment_thenItIsRecordedAsCancelledNow() {
        hotStoreSays(ReservationStatus.CANCELLED);
        var cancelled = new OrderPlacement.CancelledBeforeOrder(Order.cancelledBeforeOrder(RESERVATION, NOW, NOW));
        when(orders.recordCancelledBeforeOrder(RESERVATION, NOW, NOW)).thenReturn(cancelled);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(cancelled);
    }

    @Test
    void givenACancelledBeforeOrderDeliveredAgain_thenNothingMovesAnywhere() {
        hotStoreSays(ReservationStatus.CANCELLED);
        when(heldReservations.cancelledAt(ID)).thenReturn(Optional.of(CANCELLED_AT));
        var already = new OrderPlacement.AlreadyPlaced(Order.cancelledBeforeOrder(RESERVATION, CANCELLED_AT, NOW));
        when(orders.recordCancelledBeforeOrder(RESERVATION, CANCELLED_AT, NOW)).thenReturn(already);

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(already);

        verify(reservationMoves, never()).confirm(any());
        verify(reservationMoves, never()).restore(any());
        verify(transitions, never()).cancelReleased(any(), any());
    }

    @Test
    void givenTheBuyerCancelledBetweenTheLookAndTheCommit_thenTheNewOrderIsCancelledInTheDatabaseOnly() {
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(inStatus(ReservationStatus.RESERVED)),
                Optional.of(inStatus(ReservationStatus.CANCELLED)));
        var placed = new OrderPlacement.Placed(Order.placed(RESERVATION, NOW));
        databaseAnswers(placed);
        when(reservationMoves.confirm(ID)).thenReturn(false);
        when(heldReservations.cancelledAt(ID)).thenReturn(Optional.of(CANCELLED_AT));

        assertThat(service.placeOrder(RESERVATION)).isEqualTo(placed);

        InOrder order = inOrder(orders, heldReservations, reservationMoves, transitions, restoreQueue);
        order.verify(orders).place(RESERVATION, NOW);
        order.verify(reservationMoves).confirm(ID);
        order.verify(transitions).cancelReleased(ID, CANCELLED_AT);
        verify(transitions, never()).closeWithRestore(any(), any(), any());
        verify(reservationMoves, never()).restore(any());
    }

    @Test
    void givenTheHotStoreRefusesToConfirmBecauseAnEarlierDeliveryDid_thenNothingIsCancelled() {
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(inStatus(ReservationStatus.RESERVED)),
                Optional.of(inStatus(ReservationStatus.ORDERED)));
        databaseAnswers(new OrderPlacement.Placed(Order.placed(RESERVATION, NOW)));

        service.placeOrder(RESERVATION);

        verify(transitions, never()).cancelReleased(any(), any());
    }

    @Test
    void givenTheLookRacedAFirstDeliveryThatPlacedTheOrder_thenTheOrderIsCancelledBecauseTheHotStoreReleasedIt() {
        hotStoreSays(ReservationStatus.CANCELLED);
        when(heldReservations.cancelledAt(ID)).thenReturn(Optional.of(CANCELLED_AT));
        var already = new OrderPlacement.AlreadyPlaced(Order.placed(RESERVATION, NOW.minusMillis(3)));
        when(orders.recordCancelledBeforeOrder(RESERVATION, CANCELLED_AT, NOW)).thenReturn(already);

        service.placeOrder(RESERVATION);

        verify(reservationMoves).confirm(ID);
        verify(transitions).cancelReleased(ID, CANCELLED_AT);
    }

    // ---- an earlier delivery's order moved on before the hot store heard of it ----

    @Test
    void givenTheOrderWasPaidBeforeTheHotStoreHeardOfIt_thenItIsConfirmedAndMarkedPaidThere() {
        hotStoreSays(ReservationStatus.RESERVED);
        var already = new OrderPlacement.AlreadyPlaced(
                Order.placed(RESERVATION, NOW.minusSeconds(9)).closed(ReservationStatus.PAID, NOW.minusSeconds(1)));
        databaseAnswers(already);

        service.placeOrder(RESERVATION);

        InOrder order = inOrder(heldReservations, reservationMoves);
        order.verify(reservationMoves).confirm(ID);
        order.verify(reservationMoves).markPaid(ID);
    }

    @Test
    void givenTheOrderWasCancelledBeforeTheHotStoreHeardOfIt_thenItIsConfirmedThenRestoredThereAndTheRestoreIsDone() {
        hotStoreSays(ReservationStatus.RESERVED);
        var already = new OrderPlacement.AlreadyPlaced(Order.placed(RESERVATION, NOW.minusSeconds(9))
                .closed(ReservationStatus.CANCELLED, NOW.minusSeconds(1)));
        databaseAnswers(already);
        when(reservationMoves.confirm(ID)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenReturn(Optional.of(ReservationStatus.ORDERED));

        service.placeOrder(RESERVATION);

        InOrder order = inOrder(heldReservations, reservationMoves, orders, transitions, restoreQueue);
        order.verify(reservationMoves).confirm(ID);
        order.verify(reservationMoves).restore(argThat(restoring(ID, ReservationStatus.CANCELLED)));
        order.verify(restoreQueue).hotStoreRestored(ID);
    }

    @Test
    void givenAnExpiredOrderWhoseUnitsTheHotStoreAlreadyGaveBack_thenTheRestoreIsMarkedDoneWithoutMovingStock() {
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(inStatus(ReservationStatus.EXPIRED)));
        var already = new OrderPlacement.AlreadyPlaced(Order.placed(RESERVATION, NOW.minusSeconds(9))
                .closed(ReservationStatus.EXPIRED, NOW.minusSeconds(1)));
        databaseAnswers(already);

        service.placeOrder(RESERVATION);

        verify(reservationMoves).restore(argThat(restoring(ID, ReservationStatus.EXPIRED)));
        verify(restoreQueue).hotStoreRestored(ID);
        verify(restoreQueue, never()).postponeHotStoreRestore(any(), any());
    }
}
