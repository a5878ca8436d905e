package io.flashsale.application.order.service;

import io.flashsale.application.order.model.PaymentResult;
import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class PaymentServiceTest {

    @Mock
    private OrderLookupPort orders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    private PaymentService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new PaymentService(orders, transitions, heldReservations, reservationMoves, Clock.fixed(NOW,
                                     ZoneOffset.UTC));
    }

    @Test
    void givenAnOrderedOrderConfirmedInTheHotStore_whenPaid_thenTheDatabaseDecidesAndTheHotStoreMirrorsIt() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(transitions.markPaid(ID, NOW)).thenReturn(true);

        PaymentResult result = service.pay(ALICE, ID);

        assertThat(result).isEqualTo(new PaymentResult.Paid(held(ReservationStatus.PAID)));
        InOrder order = inOrder(orders, heldReservations, reservationMoves, transitions);
        order.verify(transitions).markPaid(ID, NOW);
        order.verify(reservationMoves).markPaid(ID);
        verify(reservationMoves, never()).restore(any());
        verify(transitions, never()).closeWithRestore(any(), any(), any());
    }

    @Test
    void givenTheHotStoreFailsToMirrorThePayment_thenThePaymentStandsAsTheDatabaseDecidedIt() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.empty());
        when(transitions.markPaid(ID, NOW)).thenReturn(true);
        when(reservationMoves.markPaid(ID)).thenThrow(new IllegalStateException("redis unavailable"));

        assertThat(service.pay(ALICE, ID)).isInstanceOf(PaymentResult.Paid.class);
    }

    @Test
    void givenAPaidOrder_whenPaidAgain_thenAlreadyPaidAndNothingIsWritten() {
        when(orders.find(ID)).thenReturn(Optional.of(order(ReservationStatus.PAID)));

        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.AlreadyPaid(held(ReservationStatus.PAID)));

        verify(transitions, never()).markPaid(any(), any());
        verify(reservationMoves, never()).markPaid(any());
    }

    @ParameterizedTest
    @EnumSource(names = {"CANCELLED", "EXPIRED", "FAILED"})
    void givenAClosedOrFailedOrder_whenPaid_thenNotPayableWithItsStatusAndNothingIsWritten(ReservationStatus status) {
        when(orders.find(ID)).thenReturn(Optional.of(order(status)));

        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.NotPayable(status));

        verify(transitions, never()).markPaid(any(), any());
    }

    @ParameterizedTest
    @EnumSource(names = {"RESERVED", "CANCELLED"})
    void givenAnOrderTheHotStoreHasNotConfirmed_whenPaid_thenNotPayableWithTheHotStoresStatus(ReservationStatus hot) {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(hot)));

        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.NotPayable(hot));

        verify(transitions, never()).markPaid(any(), any());
    }

    @Test
    void givenTheExpiryWinsTheTransitionFirst_whenPaid_thenNotPayableAsExpired() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(order(ReservationStatus.EXPIRED)));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(transitions.markPaid(ID, NOW)).thenReturn(false);

        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.NotPayable(ReservationStatus.EXPIRED));

        verify(reservationMoves, never()).markPaid(any());
    }

    @Test
    void givenThePaymentDeadlinePassedAndNoExpiryRanYet_whenPaid_thenNotPayableAsExpiredAndNothingIsMirrored() {
        // The database refused the move (its deadline is in the UPDATE) and the order is still ORDERED there.
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(transitions.markPaid(ID, NOW)).thenReturn(false);

        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.NotPayable(ReservationStatus.EXPIRED));

        verify(reservationMoves, never()).markPaid(any());
    }

    @Test
    void givenAnotherPaymentWinsTheTransitionFirst_whenPaid_thenAlreadyPaid() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(order(ReservationStatus.PAID)));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));

        assertThat(service.pay(ALICE, ID)).isInstanceOf(PaymentResult.AlreadyPaid.class);
    }

    @ParameterizedTest
    @EnumSource(names = {"RESERVED", "CANCELLED"})
    void givenNoOrderYet_whenPaid_thenNotPayableWithTheHotStoresStatus(ReservationStatus hot) {
        when(orders.find(ID)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(hot)));

        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.NotPayable(hot));
    }

    @Test
    void givenTheOrderAppearsBetweenTheTwoReads_whenPaid_thenTheSecondLookPaysIt() {
        when(orders.find(ID)).thenReturn(Optional.empty(), Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(transitions.markPaid(ID, NOW)).thenReturn(true);

        assertThat(service.pay(ALICE, ID)).isInstanceOf(PaymentResult.Paid.class);
    }

    @Test
    void givenAnotherBuyersOrUnknownReservation_whenPaid_thenNotFoundAndNothingIsWritten() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        assertThat(service.pay(MALLORY, ID)).isEqualTo(new PaymentResult.NotFound());

        when(orders.find(ID)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.RESERVED)));
        assertThat(service.pay(MALLORY, ID)).isEqualTo(new PaymentResult.NotFound());

        when(heldReservations.findReservation(ID)).thenReturn(Optional.empty());
        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.NotFound());
        verify(transitions, never()).markPaid(any(), any());
    }

    @Test
    void givenTheHotStoreUnreadableAndNoOrder_whenPaid_thenTryAgainNotNotFound_andAnOrderIsStillPaid() {
        // The breaker is open: a reservation Redis accepted and the database has not placed yet cannot be ruled out.
        lenient().doThrow(new DegradedException("out", Duration.ofSeconds(1))).when(heldReservations).requireReadable();
        when(orders.find(ID)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service.pay(ALICE, ID)).isInstanceOf(DegradedException.class);
        verify(transitions, never()).markPaid(any(), any());

        // The database knows its orders: one is paid without the hot store (ADR 39).
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(transitions.markPaid(ID, NOW)).thenReturn(true);
        assertThat(service.pay(ALICE, ID)).isEqualTo(new PaymentResult.Paid(held(ReservationStatus.PAID)));
    }
}
