package io.flashsale.application.order.service;

import io.flashsale.application.order.model.PaymentNotification;
import io.flashsale.application.order.model.ProviderPaymentResult;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.order.port.out.ProviderPaymentsPort.PaymentMark;
import io.flashsale.application.order.port.out.ProviderPaymentsPort;
import io.flashsale.application.order.port.out.RefusedPayment;
import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.PaymentReference;
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
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;

import static io.flashsale.application.order.service.LifecycleFixtures.ID;
import static io.flashsale.application.order.service.LifecycleFixtures.NOW;
import static io.flashsale.application.order.service.LifecycleFixtures.held;
import static io.flashsale.application.order.service.LifecycleFixtures.order;
import static io.flashsale.application.order.service.LifecycleFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ProviderPaymentServiceTest {

    private static final PaymentReference REFERENCE = new PaymentReference("pay-1");
    private static final Instant PROVIDER_PAID_AT = NOW.minusSeconds(2);
    private static final PaymentNotification NOTIFICATION = new PaymentNotification(ID, REFERENCE, PROVIDER_PAID_AT);

    @Mock
    private OrderLookupPort orders;
    @Mock
    private ProviderPaymentsPort payments;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    @Mock
    private ReservationAliasPort aliases;
    private ProviderPaymentService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new ProviderPaymentService(orders, payments, heldReservations, reservationMoves, aliases,
                                             Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void givenAnOrderedOrder_whenTheProviderConfirms_thenPaidUnderItsReferenceAndTheHotStoreMirrorsIt() {
        Order paid = ordered().closed(ReservationStatus.PAID, NOW);
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(paid));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(payments.markPaid(ID, REFERENCE, PROVIDER_PAID_AT, NOW)).thenReturn(PaymentMark.PAID);

        ProviderPaymentResult result = service.confirm(NOTIFICATION);

        assertThat(result).isEqualTo(new ProviderPaymentResult.Paid(paid));
        InOrder order = inOrder(payments, heldReservations, reservationMoves);
        order.verify(payments).markPaid(ID, REFERENCE, PROVIDER_PAID_AT, NOW);
        order.verify(reservationMoves).markPaid(ID);
        verify(payments, never()).recordRefused(any());
    }

    @Test
    void givenAnOrderPaidUnderTheSameReference_whenNotifiedAgain_thenAlreadyPaidAndNothingIsWrittenOrRecorded() {
        when(orders.find(ID)).thenReturn(Optional.of(order(ReservationStatus.PAID)));
        when(payments.referenceOf(ID)).thenReturn(Optional.of(REFERENCE));

        assertThat(service.confirm(NOTIFICATION))
                .isEqualTo(new ProviderPaymentResult.AlreadyPaid(order(ReservationStatus.PAID)));
        verify(payments, never()).markPaid(any(), any(), any(), any());
        verify(payments, never()).recordRefused(any());
    }

    @Test
    void givenAnOrderPaidUnderAnotherReference_whenNotified_thenAConflictIsRecordedAndNothingIsPaid() {
        when(orders.find(ID)).thenReturn(Optional.of(order(ReservationStatus.PAID)));
        when(payments.referenceOf(ID)).thenReturn(Optional.of(new PaymentReference("pay-0")));

        assertThat(service.confirm(NOTIFICATION))
                .isEqualTo(new ProviderPaymentResult.Conflict(order(ReservationStatus.PAID)));
        verify(payments).recordRefused(refused(RefusedPayment.Reason.CONFLICT, ReservationStatus.PAID));
        verify(payments, never()).markPaid(any(), any(), any(), any());
    }

    @Test
    void givenAConcurrentDeliveryWonTheMove_whenTheLoserReadsBack_thenAlreadyPaidWithTheSameOrder() {
        Order paid = order(ReservationStatus.PAID);
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(paid));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.PAID)));
        when(payments.markPaid(ID, REFERENCE, PROVIDER_PAID_AT, NOW)).thenReturn(PaymentMark.NOT_CHANGED);
        when(payments.referenceOf(ID)).thenReturn(Optional.of(REFERENCE));

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.AlreadyPaid(paid));
        verify(payments, never()).recordRefused(any());
    }

    @Test
    void givenTheDeadlinePassedBeforeTheExpiryPass_whenNotified_thenRefusedAsExpiredAndRecorded() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()), Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(payments.markPaid(ID, REFERENCE, PROVIDER_PAID_AT, NOW)).thenReturn(PaymentMark.NOT_CHANGED);

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.Refused(ReservationStatus.EXPIRED));
        verify(payments).recordRefused(refused(RefusedPayment.Reason.NOT_PAYABLE, ReservationStatus.EXPIRED));
        verify(reservationMoves, never()).markPaid(any());
    }

    @Test
    void givenTheReferencePaidAnotherOrder_whenNotified_thenAConflictIsRecorded() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.ORDERED)));
        when(payments.markPaid(ID, REFERENCE, PROVIDER_PAID_AT, NOW)).thenReturn(PaymentMark.REFERENCE_TAKEN);

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.Conflict(ordered()));
        verify(payments).recordRefused(refused(RefusedPayment.Reason.CONFLICT, ReservationStatus.ORDERED));
    }

    @ParameterizedTest
    @EnumSource(value = ReservationStatus.class, names = {"CANCELLED", "EXPIRED", "FAILED"})
    void givenAClosedOrder_whenNotified_thenRefusedAndRecordedForTheRefund(ReservationStatus status) {
        when(orders.find(ID)).thenReturn(Optional.of(order(status)));

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.Refused(status));
        verify(payments).recordRefused(refused(RefusedPayment.Reason.NOT_PAYABLE, status));
        verify(payments, never()).markPaid(any(), any(), any(), any());
    }

    @Test
    void givenAnOrderTheHotStoreStillHoldsAsReserved_whenNotified_thenNotYetOrderedAndNothingRecorded() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.RESERVED)));

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.NotYetOrdered());
        verify(payments, never()).markPaid(any(), any(), any(), any());
        verify(payments, never()).recordRefused(any());
    }

    @Test
    void givenAnOrderTheHotStoreReleased_whenNotified_thenRefusedAsCancelled() {
        when(orders.find(ID)).thenReturn(Optional.of(ordered()));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.CANCELLED)));

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.Refused(ReservationStatus.CANCELLED));
        verify(payments).recordRefused(refused(RefusedPayment.Reason.NOT_PAYABLE, ReservationStatus.CANCELLED));
    }

    @Test
    void givenAReservationNotYetAnOrder_whenNotified_thenNotYetOrdered() {
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.RESERVED)));

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.NotYetOrdered());
        verify(payments, never()).recordRefused(any());
    }

    @Test
    void givenAReservationCancelledBeforeItWasAnOrder_whenNotified_thenRefusedAndRecorded() {
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.CANCELLED)));

        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.Refused(ReservationStatus.CANCELLED));
        verify(payments).recordRefused(refused(RefusedPayment.Reason.NOT_PAYABLE, ReservationStatus.CANCELLED));
    }

    @Test
    void givenNoSuchReservation_whenNotified_thenNotFoundAndNothingRecorded() {
        assertThat(service.confirm(NOTIFICATION)).isEqualTo(new ProviderPaymentResult.NotFound());
        verify(payments, never()).recordRefused(any());
    }

    private static RefusedPayment refused(RefusedPayment.Reason reason, ReservationStatus status) {
        return new RefusedPayment(ID, REFERENCE, reason, status, PROVIDER_PAID_AT, NOW);
    }

    @Test
    void givenTheHotStoreUnreadableAndNoOrder_whenNotified_thenTheProviderIsToldToTryAgainNotNotFound() {
        // A provider told "not found" stops retrying a payment the buyer made; while Redis is out it is not known.
        doThrow(new DegradedException("out", Duration.ofSeconds(1))).when(heldReservations).requireReadable();

        assertThatThrownBy(() -> service.confirm(NOTIFICATION)).isInstanceOf(DegradedException.class);
        verify(payments, never()).recordRefused(any());
    }
}
