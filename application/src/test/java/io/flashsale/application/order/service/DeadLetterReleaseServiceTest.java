package io.flashsale.application.order.service;

import io.flashsale.application.order.model.DeadLetterPass;
import io.flashsale.application.order.port.out.DeadLetter;
import io.flashsale.application.order.port.out.DeadLetterPort;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderPipelineMetricsPort;
import io.flashsale.application.order.port.out.OrderPlacementPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.sale.port.out.ActivityRecord;
import io.flashsale.application.sale.port.out.ActivityRecordsPort;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderPlacement;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static io.flashsale.application.order.service.LifecycleFixtures.ID;
import static io.flashsale.application.order.service.LifecycleFixtures.RESERVED;
import static io.flashsale.application.order.service.LifecycleFixtures.RESERVED_AT;
import static io.flashsale.application.order.service.LifecycleFixtures.SALE;
import static io.flashsale.application.order.service.LifecycleFixtures.held;
import static io.flashsale.application.order.service.LifecycleFixtures.ordered;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class DeadLetterReleaseServiceTest {

    private static final Duration PAYMENT_TIMEOUT = Duration.ofMinutes(15);
    private static final DeadLetter LETTER = new DeadLetter("0-7", ID.value(), "{}", "poison", RESERVED_AT);

    @Mock
    private DeadLetterPort deadLetters;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private OrderPlacementPort orders;
    @Mock
    private HotStoreSettlementPort hotStore;
    @Mock
    private ActivityRecordsPort activities;
    @Mock
    private OrderPipelineMetricsPort metrics;

    private DeadLetterReleaseService at(Instant now) {
        when(deadLetters.list(100)).thenReturn(List.of(LETTER));
        return new DeadLetterReleaseService(deadLetters, heldReservations, orders, hotStore, activities, metrics,
                Clock.fixed(now, ZoneOffset.UTC));
    }

    private void saleKnown() {
        Activity sale = new Activity(SALE, "Summer", RESERVED_AT.minusSeconds(60), RESERVED_AT.plusSeconds(3600),
                PurchaseLimit.ONE, PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));
        when(activities.find(SALE)).thenReturn(Optional.of(new ActivityRecord(sale, Optional.empty())));
    }

    @Test
    void givenADeadLetterPastItsPaymentDeadline_whenAPassRuns_thenTheDatabaseClosesItFirstAndTheHotStoreGivesBack() {
        DeadLetterReleaseService release = at(RESERVED_AT.plus(PAYMENT_TIMEOUT));
        saleKnown();
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(RESERVED));
        Order closed = Order.refused(RESERVED, OrderRefusal.NOT_PLACED_IN_TIME, RESERVED_AT.plus(PAYMENT_TIMEOUT));
        when(orders.recordNotPlacedInTime(RESERVED, RESERVED_AT.plus(PAYMENT_TIMEOUT)))
                .thenReturn(new OrderPlacement.Refused(closed));

        DeadLetterPass pass = release.releaseOverdue(100);

        assertThat(pass).isEqualTo(new DeadLetterPass(1, 0));
        verify(hotStore).settle(SALE, List.of(), List.of(ID));
        verify(metrics).deadLetterReleased(closed);
        verify(metrics).deadLettersHeld(0);
    }

    @Test
    void givenADeadLetterWithinItsPaymentDeadline_whenAPassRuns_thenItKeepsItsUnitsAndCountsAsHeld() {
        DeadLetterReleaseService release = at(RESERVED_AT.plus(PAYMENT_TIMEOUT).minusMillis(1));
        saleKnown();
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(RESERVED));

        assertThat(release.releaseOverdue(100)).isEqualTo(new DeadLetterPass(0, 1));

        verify(orders, never()).recordNotPlacedInTime(any(), any());
        verify(metrics).deadLettersHeld(1);
    }

    /** A replay or a late delivery placed it first: its order stands, and the hot store is brought to it. */
    @Test
    void givenADeadLetterThatBecameAnOrderMeanwhile_whenAPassRuns_thenTheOrderStandsAndIsConfirmed() {
        DeadLetterReleaseService release = at(RESERVED_AT.plus(PAYMENT_TIMEOUT).plusSeconds(5));
        saleKnown();
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(RESERVED));
        when(orders.recordNotPlacedInTime(any(), any())).thenReturn(new OrderPlacement.AlreadyPlaced(ordered()));

        assertThat(release.releaseOverdue(100)).isEqualTo(new DeadLetterPass(0, 0));

        verify(hotStore).settle(SALE, List.of(ID), List.of());
        verify(metrics, never()).deadLetterReleased(any());
    }

    @Test
    void givenADeadLetterWhoseReservationIsNoLongerHeld_whenAPassRuns_thenNothingIsAsked() {
        DeadLetterReleaseService release = at(RESERVED_AT.plus(PAYMENT_TIMEOUT).plusSeconds(5));
        when(heldReservations.findReservation(ID)).thenReturn(Optional.of(held(ReservationStatus.CANCELLED)));

        assertThat(release.releaseOverdue(100)).isEqualTo(new DeadLetterPass(0, 0));

        verify(orders, never()).recordNotPlacedInTime(any(), any());
        verify(activities, never()).find(any());
    }
}
