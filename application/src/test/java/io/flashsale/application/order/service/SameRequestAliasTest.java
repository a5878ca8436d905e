package io.flashsale.application.order.service;

import io.flashsale.application.order.model.CancellationResult;
import io.flashsale.application.order.model.PaymentResult;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.reservation.service.KnownRefusals;
import io.flashsale.application.reservation.service.ReservationAdmission;
import io.flashsale.application.reservation.service.ReservationService;
import io.flashsale.application.sale.port.out.ActivityLookupPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Optional;

import static io.flashsale.application.order.service.LifecycleFixtures.ALICE;
import static io.flashsale.application.order.service.LifecycleFixtures.ID;
import static io.flashsale.application.order.service.LifecycleFixtures.MALLORY;
import static io.flashsale.application.order.service.LifecycleFixtures.NOW;
import static io.flashsale.application.order.service.LifecycleFixtures.RESERVED;
import static io.flashsale.application.order.service.LifecycleFixtures.RESERVED_AT;
import static io.flashsale.application.order.service.LifecycleFixtures.SALE;
import static io.flashsale.application.order.service.LifecycleFixtures.order;
import static io.flashsale.application.order.service.LifecycleFixtures.ordered;
import static io.flashsale.application.order.service.RestoreFixtures.restoring;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * A second reservation of one request, refused by the pipeline as its duplicate, is an alias of the request's order
 * (ADR 61): the buyer's look, payment and cancellation of it answer and act on that order, and the alias is asked only
 * when neither the database has an order of the id nor the hot store a live reservation.
 */
@ExtendWith(MockitoExtension.class)
class SameRequestAliasTest {

    /** The second reservation of {@link LifecycleFixtures#RESERVED}'s request; its order is {@code ID}'s. */
    private static final ReservationId SECOND = new ReservationId(SALE.value() + ".01JSECOND");

    @Mock
    private OrderLookupPort orders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private RestoreQueuePort restoreQueue;
    @Mock
    private StockReservationPort stock;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    @Mock
    private ActivityLookupPort activities;
    @Mock
    private IdGeneratorPort ids;
    @Mock
    private ReservationAliasPort aliases;
    private ReservationService reads;
    private PaymentService payments;
    private CancellationService cancellations;

    @BeforeEach
    void wire() {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        reads = new ReservationService(stock, heldReservations, activities, orders, ids, clock, KnownRefusals.none(),
                ReservationAdmission.unlimited(), aliases);
        payments = new PaymentService(orders, transitions, heldReservations, reservationMoves, aliases, clock);
        cancellations = new CancellationService(orders, transitions, restoreQueue, heldReservations, reservationMoves,
                                                aliases, clock);
    }

    @Test
    void givenTheSecondIdFailedInTheHotStore_whenItsBuyerReadsIt_thenTheRequestsOrderIsAnsweredUnderItsOwnId() {
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.FAILED)));
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(aliases.orderReservationOf(SECOND)).thenReturn(Optional.of(ID));
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));

        Optional<ReservationView> view = reads.view(ALICE, SECOND);

        assertThat(view).isPresent();
        assertThat(view.get().reservation().id()).isEqualTo(ID);
        assertThat(view.get().reservation().status()).isEqualTo(ReservationStatus.ORDERED);
        assertThat(view.get().ordered()).isTrue();
    }

    @Test
    void givenTheSecondIdGoneFromTheHotStore_whenAnotherBuyerReadsIt_thenNothingIsFound() {
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.empty());
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(aliases.orderReservationOf(SECOND)).thenReturn(Optional.of(ID));
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));

        assertThat(reads.view(MALLORY, SECOND)).isEmpty();
    }

    @Test
    void givenTheSecondIdStillReservedInTheHotStore_whenRead_thenItIsAnsweredAsItIsAndNoAliasIsAsked() {
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.RESERVED)));

        Optional<ReservationView> view = reads.view(ALICE, SECOND);

        assertThat(view.map(v -> v.reservation().id())).contains(SECOND);
        verifyNoInteractions(aliases, orders, transitions, restoreQueue);
    }

    @Test
    void givenAFailedReservationThatIsNoAlias_whenRead_thenItStaysFailed() {
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.FAILED)));
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(aliases.orderReservationOf(SECOND)).thenReturn(Optional.empty());

        assertThat(reads.view(ALICE, SECOND).map(v -> v.reservation().status())).contains(ReservationStatus.FAILED);
    }

    @Test
    void givenTheSecondIdGoneFromTheHotStore_whenPaid_thenTheRequestsOrderIsPaid() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.empty());
        when(aliases.orderReservationOf(SECOND)).thenReturn(Optional.of(ID));
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.empty());
        when(transitions.markPaid(ID, NOW)).thenReturn(true);

        PaymentResult result = payments.pay(ALICE, SECOND);

        assertThat(result).isInstanceOf(PaymentResult.Paid.class);
        assertThat(((PaymentResult.Paid) result).reservation().id()).isEqualTo(ID);
        verify(reservationMoves).markPaid(ID);
        verify(reservationMoves, never()).markPaid(SECOND);
    }

    @Test
    void givenTheSecondIdFailedInTheHotStore_whenAnotherBuyerPays_thenNotFoundAndNothingMoves() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.FAILED)));

        assertThat(payments.pay(MALLORY, SECOND)).isEqualTo(new PaymentResult.NotFound());

        verify(transitions, never()).markPaid(any(), any());
    }

    @Test
    void givenTheRequestsOrderPaidAlready_whenTheSecondIdIsPaid_thenAlreadyPaid() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.FAILED)));
        when(aliases.orderReservationOf(SECOND)).thenReturn(Optional.of(ID));
        when(orders.find(ID)).thenReturn(Optional.of(order(ReservationStatus.PAID)));

        assertThat(payments.pay(ALICE, SECOND)).isInstanceOf(PaymentResult.AlreadyPaid.class);
        verify(transitions, never()).markPaid(any(), any());
    }

    @Test
    void givenTheSecondIdFailedInTheHotStore_whenCancelled_thenTheRequestsOrderIsCancelledWithItsUnitsBackOnce() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.FAILED)));
        when(aliases.orderReservationOf(SECOND)).thenReturn(Optional.of(ID));
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenReturn(Optional.of(ReservationStatus.ORDERED));

        CancellationResult result = cancellations.cancel(ALICE, SECOND);

        assertThat(result).isInstanceOf(CancellationResult.Cancelled.class);
        assertThat(((CancellationResult.Cancelled) result).reservation().id()).isEqualTo(ID);
        verify(reservationMoves, never()).release(any(), any());
        verify(reservationMoves, never()).restore(argThat(restoring(SECOND, ReservationStatus.CANCELLED)));
    }

    @Test
    void givenTheSecondIdStillReservedInTheHotStore_whenCancelled_thenTheHotStoreReleasesItAndNoAliasIsAsked() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.RESERVED)));
        when(reservationMoves.release(SECOND, NOW)).thenReturn(true);

        assertThat(cancellations.cancel(ALICE, SECOND)).isInstanceOf(CancellationResult.Cancelled.class);
        verifyNoInteractions(aliases);
    }

    /** The pipeline has not refused the second id yet, so there is no alias: the request's key finds its order. */
    @Test
    void givenTheSecondIdStillReservedAndTheRequestOrderedUnderTheFirst_whenCancelled_thenBothGoWithTheirUnitsBackOnce() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.RESERVED)));
        when(reservationMoves.release(SECOND, NOW)).thenReturn(true);
        when(orders.findByRequest(SALE, ALICE, RESERVED.requestId())).thenReturn(Optional.of(ordered()));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenReturn(Optional.of(ReservationStatus.ORDERED));

        CancellationResult result = cancellations.cancel(ALICE, SECOND);

        assertThat(result).isInstanceOf(CancellationResult.Cancelled.class);
        assertThat(((CancellationResult.Cancelled) result).reservation().id()).as("the id the buyer cancelled")
                .isEqualTo(SECOND);
        verify(reservationMoves).release(SECOND, NOW);
        verify(transitions).closeWithRestore(ID, ReservationStatus.CANCELLED, NOW);
        verify(reservationMoves).restore(argThat(restoring(ID, ReservationStatus.CANCELLED)));
        verify(reservationMoves, never()).restore(argThat(restoring(SECOND, ReservationStatus.CANCELLED)));
    }

    @Test
    void givenTheSecondIdStillReservedAndTheRequestsOrderPaid_whenCancelled_thenOnlyTheSecondIsReleased() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.RESERVED)));
        when(reservationMoves.release(SECOND, NOW)).thenReturn(true);
        when(orders.findByRequest(SALE, ALICE, RESERVED.requestId()))
                .thenReturn(Optional.of(order(ReservationStatus.PAID)));

        assertThat(cancellations.cancel(ALICE, SECOND)).isInstanceOf(CancellationResult.Cancelled.class);
        verify(transitions, never()).closeWithRestore(any(), any(), any());
        verify(reservationMoves, never()).restore(any());
    }

    /** The first cancellation released the second id, then failed on the database's read: its retry finishes it. */
    @Test
    void givenTheSecondIdCancelledAlready_whenCancelledAgain_thenTheRequestsOrderStillGoes() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.CANCELLED)));
        when(orders.findByRequest(SALE, ALICE, RESERVED.requestId())).thenReturn(Optional.of(ordered()));
        when(transitions.closeWithRestore(ID, ReservationStatus.CANCELLED, NOW)).thenReturn(true);
        when(reservationMoves.restore(argThat(restoring(ID, ReservationStatus.CANCELLED))))
                .thenReturn(Optional.of(ReservationStatus.ORDERED));

        assertThat(cancellations.cancel(ALICE, SECOND)).isInstanceOf(CancellationResult.AlreadyCancelled.class);
        verify(transitions).closeWithRestore(ID, ReservationStatus.CANCELLED, NOW);
        verify(reservationMoves, never()).release(any(), any());
    }

    @Test
    void givenTheSecondIdNotReleasedInTheHotStore_whenCancelled_thenTheRequestsOrderIsNotTouched() {
        when(orders.find(SECOND)).thenReturn(Optional.empty());
        when(heldReservations.findReservation(SECOND)).thenReturn(Optional.of(second(ReservationStatus.RESERVED)));
        when(reservationMoves.release(SECOND, NOW)).thenReturn(false);

        cancellations.cancel(ALICE, SECOND);

        verify(orders, never()).findByRequest(any(), any(), any());
        verify(transitions, never()).closeWithRestore(any(), any(), any());
    }

    private static Reservation second(ReservationStatus status) {
        return new Reservation(SECOND, SALE, ALICE, RESERVED.requestId(), RESERVED.lines(), status, RESERVED_AT);
    }
}
