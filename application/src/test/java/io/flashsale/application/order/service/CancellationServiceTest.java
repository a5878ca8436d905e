package io.flashsale.application.order.service;

import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;

import static io.flashsale.application.order.service.LifecycleFixtures.ALICE;
import static io.flashsale.application.order.service.LifecycleFixtures.ID;
import static io.flashsale.application.order.service.LifecycleFixtures.MALLORY;
import static io.flashsale.application.order.service.LifecycleFixtures.NOW;
import static io.flashsale.application.order.service.LifecycleFixtures.held;
import static io.flashsale.application.order.service.LifecycleFixtures.order;
import static io.flashsale.application.order.service.LifecycleFixtures.ordered;
import static io.flashsale.application.order.service.RestoreFixtures.restoring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class CancellationServiceTest {

    @Mock
    private OrderLookupPort orders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private RestoreQueuePort restoreQueue;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    private CancellationService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new CancellationService(orders, transitions, restoreQueue, heldReservations, reservationMoves,
                                          Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void givenAReservedReservation_whenCancelled_thenTheHotStoreReleasesItAtThisMomentAndTheDatabaseIsNotWritten() {
        when(orders.find(ID)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.RESERVED)));
        when(reservationMoves.release(ID, NOW)).thenReturn(true);

        assertThat(service.cancel(ALICE, ID)).isEqualTo(new CancellationResult.Cancelled(held(ReservationStatus.CANCELLED)));

        verify(transitions, never()).closeWithRestore(any(), any(), any());
        verify(transitions, never()).cancelReleased(any(), any());
    }

    @Test
    void givenAnOrderedOrder_whenCancelled_thenTheDatabaseClosesAndRestoresFirstThenTheHotStoreRestores() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenReturn(Optional.of(ReservationStatus.ORDERED));

        assertThat(service.cancel(ALICE, ID)).isEqualTo(new CancellationResult.Cancelled(held(ReservationStatus.CANCELLED)));

        InOrder order = inOrder(orders, heldReservations, reservationMoves, transitions, restoreQueue);
        order.verify(transitions).closeWithRestore(ID, ReservationStatus.CANCELLED, NOW);
        order.verify(reservationMoves).restore(argThat(restoring(ID, ReservationStatus.CANCELLED)));
        order.verify(restoreQueue).hotStoreRestored(ID);
        verify(reservationMoves, never()).release(any(), any());
    }

    @Test
    void givenTheHotStoreHasNotConfirmedTheOrderYet_whenCancelled_thenCancelledAndTheHotStoreRestoreIsPostponed() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenReturn(Optional.of(ReservationStatus.RESERVED));

        assertThat(service.cancel(ALICE, ID)).isInstanceOf(CancellationResult.Cancelled.class);

        verify(restoreQueue).postponeHotStoreRestore(ID, NOW.plus(HotStoreRestores.RETRY_AFTER));
        verify(restoreQueue, never()).hotStoreRestored(any());
        verify(reservationMoves, never()).release(any(), any());
    }

    @Test
    void givenTheHotStoreIsDown_whenAnOrderIsCancelled_thenTheDatabasesDecisionStandsAndTheRestoreStaysDue() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenThrow(new IllegalStateException("redis unavailable"));

        assertThat(service.cancel(ALICE, ID)).isInstanceOf(CancellationResult.Cancelled.class);

        verify(restoreQueue, never()).hotStoreRestored(any());
    }

    @Test
    void givenTheExpiryWinsTheTransitionFirst_whenCancelled_thenNotCancellableAsExpiredAndNothingIsRestoredHere() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(order(ReservationStatus.EXPIRED)));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(false);

        assertThat(service.cancel(ALICE, ID)).isEqualTo(new CancellationResult.NotCancellable(ReservationStatus.EXPIRED));

        verify(reservationMoves, never()).restore(any());
        verify(restoreQueue, never()).hotStoreRestored(any());
    }

    @Test
    void givenACancelledOrder_whenCancelledAgain_thenAlreadyCancelledAndNothingMoves() {
        when(orders.find(ID)).thenReturn(Optional.of(order(ReservationStatus.CANCELLED)));

        assertThat(service.cancel(ALICE, ID))
                .isEqualTo(new CancellationResult.AlreadyCancelled(held(ReservationStatus.CANCELLED)));

        verify(transitions, never()).closeWithRestore(any(), any(), any());
        verify(reservationMoves, never()).restore(any());
    }

    @Test
    void givenAReservationCancelledWhileReserved_whenCancelledAgain_thenAlreadyCancelled() {
        when(orders.find(ID)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.CANCELLED)));

        assertThat(service.cancel(ALICE, ID))
                .isEqualTo(new CancellationResult.AlreadyCancelled(held(ReservationStatus.CANCELLED)));

        verify(reservationMoves, never()).release(any(), any());
    }

    @ParameterizedTest
    @EnumSource(names = {"PAID", "EXPIRED", "FAILED"})
    void givenAPaidExpiredOrFailedOrder_whenCancelled_thenNotCancellable(ReservationStatus status) {
        when(orders.find(ID)).thenReturn(Optional.of(order(status)));

        assertThat(service.cancel(ALICE, ID)).isEqualTo(new CancellationResult.NotCancellable(status));

        verify(transitions, never()).closeWithRestore(any(), any(), any());
    }

    @Test
    void givenTheOrderIsConfirmedBetweenTheReads_whenCancelled_thenTheDatabaseCancelsIt() {
        when(orders.find(ID)).thenReturn(Optional.empty(), Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.RESERVED)));
        when(reservationMoves.release(ID, NOW)).thenReturn(false);
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);

        assertThat(service.cancel(ALICE, ID)).isInstanceOf(CancellationResult.Cancelled.class);

        verify(transitions).closeWithRestore(ID, ReservationStatus.CANCELLED, NOW);
    }

    @Test
    void givenAnotherBuyersOrUnknownReservation_whenCancelled_thenNotFoundAndNothingMoves() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        assertThat(service.cancel(MALLORY, ID)).isEqualTo(new CancellationResult.NotFound());

        when(orders.find(ID)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.RESERVED)));
        assertThat(service.cancel(MALLORY, ID)).isEqualTo(new CancellationResult.NotFound());

        when(heldReservations.findReservation(ID)).thenReturn(Optional.empty());
        assertThat(service.cancel(ALICE, ID)).isEqualTo(new CancellationResult.NotFound());

        verify(transitions, never()).closeWithRestore(any(), any(), any());
        verify(reservationMoves, never()).release(any(), any());
    }

    @Test
    void givenTheHotStoreUnreadableAndNoOrder_whenCancelled_thenTryAgainNotNotFoundAndNothingMoves() {
        // The breaker is open: a reservation Redis accepted and the database has not placed yet cannot be ruled out.
        doThrow(new DegradedException("out", Duration.ofSeconds(1))).when(heldReservations).requireReadable();
        when(orders.find(ID)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service.cancel(ALICE, ID)).isInstanceOf(DegradedException.class);

        verify(transitions, never()).closeWithRestore(any(), any(), any());
        verify(reservationMoves, never()).release(any(), any());
    }
}
