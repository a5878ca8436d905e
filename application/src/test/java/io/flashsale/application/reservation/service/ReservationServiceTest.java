package io.flashsale.application.reservation.service;

import io.flashsale.application.outage.model.DegradedException;
import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.model.ReservationView;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.DeductionLogPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.order.OrderRefusal;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.reservation.ReservationRequest;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.reservation.StatusTimes;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ReservationServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final BuyerId ALICE = new BuyerId("alice");
    private static final Instant NOW = Instant.parse("2030-06-01T10:15:30.123456789Z");
    private static final List<ReservationLine> LINES = List.of(new ReservationLine(new SkuId("a"), 2));

    @Mock
    private StockReservationPort stock;
    @Mock
    private HeldReservationsPort heldReservations;
    @Mock
    private ActivityStore activities;
    @Mock
    private OrderLookupPort orders;
    @Mock
    private IdGeneratorPort ids;
    private ReservationService service;

    @BeforeEach
    void wireWithAFixedClock() {
        // A sale of one slice, as every sale before slices (ADR 109).
        lenient().when(stock.slices(any())).thenReturn(SaleSlices.ONE);
        service = new ReservationService(stock, heldReservations, activities, orders, ids, Clock.fixed(NOW,
                                         ZoneOffset.UTC));
    }

    private static Reservation reservation(ReservationStatus status) {
        return new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("k"), LINES, status,
                NOW);
    }

    private static Activity activity() {
        return new Activity(SALE, "Summer sale", NOW.minusSeconds(60), NOW.plusSeconds(60), PurchaseLimit.ONE,
                Duration.ofMinutes(15), List.of(ActivityItem.of("a", 10)));
    }

    private ReservationRequest sentToTheStore() {
        ArgumentCaptor<ReservationRequest> request = ArgumentCaptor.forClass(ReservationRequest.class);
        verify(stock).reserve(request.capture());
        return request.getValue();
    }

    private void storeAnswers(ReservationOutcome outcome) {
        when(stock.reserve(any())).thenReturn(outcome);
    }

    @Test
    void reservationIdIsTheActivityIdDotTheGeneratedToken() {
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.SoldOut(new SkuId("a")));

        service.reserve(new ReserveStockCommand(SALE, ALICE, new RequestId("key-1"), LINES));

        assertThat(sentToTheStore().id()).isEqualTo(new ReservationId("summer-sale.01JTOKEN"));
    }

    @Test
    void givenASaleInSlices_thenTheIdNamesTheBuyersHomeSliceAndTheStoreDecidesThere() {
        var slices = new SaleSlices(3);
        when(stock.slices(SALE)).thenReturn(slices);
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.Reserved(reservation(ReservationStatus.RESERVED)));

        service.reserve(new ReserveStockCommand(SALE, ALICE, new RequestId("key-1"), LINES));

        int home = slices.homeOf(ALICE);
        assertThat(sentToTheStore().id()).isEqualTo(new ReservationId("summer-sale." + home + "of3.01JTOKEN"));
        assertThat(sentToTheStore().id().slice()).isEqualTo(new SaleSlice(SALE, home, slices));
    }

    @Test
    void givenASaleInSlices_whenTheHomeSliceIsShort_thenItBorrowsAndTheAttemptIsTriedOnceMore() {
        var slices = new SaleSlices(2);
        when(stock.slices(SALE)).thenReturn(slices);
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(new SkuId("a")),
                new ReservationOutcome.Reserved(reservation(ReservationStatus.RESERVED)));
        long[] available = new long[2];
        available[1 - slices.homeOf(ALICE)] = 6;
        var borrowed = new java.util.ArrayList<String>();
        service = new ReservationService(stock, heldReservations, activities, orders, ids,
                Clock.fixed(NOW, ZoneOffset.UTC), KnownRefusals.none(), ReservationAdmission.unlimited(),
                ReservationAliasPort.none(), RiskControl.none(), DeductionLogPort.none(),
                new ShortAtHome(new SliceStockPort() {
                    @Override
                    public java.util.OptionalLong take(SaleSlice slice, SkuId skuId, long transferId, long units) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public boolean credit(SaleSlice slice, SkuId skuId, long transferId, long units) {
                        throw new UnsupportedOperationException();
                    }

                    @Override
                    public java.util.OptionalLong available(SaleSlice slice, SkuId skuId) {
                        return java.util.OptionalLong.of(available[slice.index()]);
                    }

                    @Override
                    public Optional<List<io.flashsale.domain.stock.SkuStock>> stock(SaleSlice slice) {
                        throw new UnsupportedOperationException();
                    }
                }, (activityId, skuId, from, to, units) -> {
                    borrowed.add(from + "->" + to + ":" + units);
                    return null;
                }, Duration.ofMillis(100), Duration.ofMillis(200)));

        ReservationOutcome outcome = service.reserve(new ReserveStockCommand(SALE, ALICE, new RequestId("k"), LINES));

        assertThat(outcome).isInstanceOf(ReservationOutcome.Reserved.class);
        int home = slices.homeOf(ALICE);
        assertThat(borrowed).containsExactly((1 - home) + "->" + home + ":3");
        verify(stock, times(2)).reserve(any());
    }

    @Test
    void givenASaleOfOneSlice_whenTheStoreSaysSoldOut_thenThatIsTheAnswerAndNothingIsBorrowed() {
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.SoldOut(new SkuId("a")));

        assertThat(service.reserve(new ReserveStockCommand(SALE, ALICE, new RequestId("k"), LINES)))
                .isEqualTo(new ReservationOutcome.SoldOut(new SkuId("a")));
        verify(stock, times(1)).reserve(any());
    }

    @Test
    void givenNoRequestId_thenTheTokenIsTheRequestIdSoTheAttemptCanNeverBeAReplay() {
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.SoldOut(new SkuId("a")));

        service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES));

        assertThat(sentToTheStore().requestId()).isEqualTo(new RequestId("01JTOKEN"));
    }

    @Test
    void givenRequestId_thenTheStoreGetsItWithTheBuyerLinesAndTheClocksInstant() {
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.SoldOut(new SkuId("a")));

        service.reserve(new ReserveStockCommand(SALE, ALICE, new RequestId("key-1"), LINES));

        ReservationRequest request = sentToTheStore();
        assertThat(request.requestId()).isEqualTo(new RequestId("key-1"));
        assertThat(request.buyerId()).isEqualTo(ALICE);
        assertThat(request.lines()).isEqualTo(LINES);
        assertThat(request.at()).isEqualTo(NOW);
    }

    @Test
    void givenAKeyedRetryOfARequestTheHotStoreSettled_thenTheBuyerGetsTheReservationAsTheDatabasesOrderHoldsIt() {
        when(ids.next()).thenReturn("01JRETRY");
        Reservation first = reservation(ReservationStatus.RESERVED);
        Order paid = Order.placed(first, NOW.plusSeconds(1)).closed(ReservationStatus.PAID, NOW.plusSeconds(2));
        storeAnswers(new ReservationOutcome.Settled(first.id()));
        when(orders.find(first.id())).thenReturn(Optional.of(paid));

        assertThat(service.reserve(new ReserveStockCommand(SALE, ALICE, new RequestId("k"), LINES)))
                .isEqualTo(new ReservationOutcome.Replayed(paid.toReservation()));
        verifyNoInteractions(activities);
    }

    @Test
    void givenStoreDecides_thenItsOutcomeIsReturnedAsItIsAndTheDatabaseIsNotAsked() {
        when(ids.next()).thenReturn("01JTOKEN");
        var reservation = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("01JTOKEN"),
                LINES, ReservationStatus.RESERVED, NOW);
        storeAnswers(new ReservationOutcome.Reserved(reservation));

        assertThat(service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES)))
                .isEqualTo(new ReservationOutcome.Reserved(reservation));
        verifyNoInteractions(activities);
    }

    @Test
    void givenStoreNotReadyAndNoSuchActivity_thenActivityNotFound() {
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.NotReady());
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES)))
                .isInstanceOfSatisfying(ActivityNotFoundException.class,
                        refused -> assertThat(refused.activityId()).isEqualTo(SALE));
    }

    @Test
    void givenStoreNotReadyAndTheActivityExists_thenNotReady() {
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.NotReady());
        when(activities.findById(SALE)).thenReturn(Optional.of(activity()));

        assertThat(service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES)))
                .isEqualTo(new ReservationOutcome.NotReady());
    }

    @Test
    void givenStoreNotReadyAndTheSaleIsOver_thenEndedNotRetryLater() {
        // An archived sale is gone from the hot store; its buyers must hear "ended", not "retry later" forever.
        when(ids.next()).thenReturn("01JTOKEN");
        storeAnswers(new ReservationOutcome.NotReady());
        Activity ended = new Activity(SALE, "Summer sale", NOW.minusSeconds(120), NOW.minusSeconds(60),
                PurchaseLimit.ONE, Duration.ofMinutes(15), List.of(ActivityItem.of("a", 10)));
        when(activities.findById(SALE)).thenReturn(Optional.of(ended));

        assertThat(service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES)))
                .isEqualTo(new ReservationOutcome.Ended(ended.endsAt()));
    }

    @Test
    void eachAttemptGetsAFreshToken() {
        when(ids.next()).thenReturn("01JFIRST", "01JSECOND");
        storeAnswers(new ReservationOutcome.SoldOut(new SkuId("a")));

        service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES));
        service.reserve(new ReserveStockCommand(SALE, ALICE, null, LINES));

        ArgumentCaptor<ReservationRequest> requests = ArgumentCaptor.forClass(ReservationRequest.class);
        verify(stock, times(2)).reserve(requests.capture());
        assertThat(requests.getAllValues()).extracting(request -> request.id().value())
                .containsExactly("summer-sale.01JFIRST", "summer-sale.01JSECOND");
    }

    @Test
    void givenTheBuyersOwnReservation_whenFinding_thenFound() {
        var reservation = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("k"),
                LINES, ReservationStatus.RESERVED, NOW);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation));

        assertThat(service.find(ALICE, reservation.id())).contains(reservation);
    }

    @Test
    void givenAnotherBuyersReservation_whenFinding_thenItLooksAbsent() {
        var reservation = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("k"),
                LINES, ReservationStatus.RESERVED, NOW);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation));

        assertThat(service.find(new BuyerId("mallory"), reservation.id())).isEmpty();
    }

    @Test
    void givenNoSuchReservation_whenFinding_thenEmpty() {
        ReservationId id = new ReservationId("summer-sale.01JNONE");
        when(heldReservations.findReservation(id)).thenReturn(Optional.empty());
        when(orders.find(id)).thenReturn(Optional.empty());

        assertThat(service.find(ALICE, id)).isEmpty();
    }

    @Test
    void givenTheHotStoreUnreadableAndNoOrder_whenFinding_thenTryAgainNotNotFound() {
        // The breaker is open: a reservation Redis accepted and the database has not placed yet cannot be ruled out.
        ReservationId id = new ReservationId("summer-sale.01JNONE");
        when(heldReservations.findReservation(id)).thenReturn(Optional.empty());
        when(orders.find(id)).thenReturn(Optional.empty());
        doThrow(new DegradedException("out", Duration.ofSeconds(1))).when(heldReservations).requireReadable();

        assertThatThrownBy(() -> service.find(ALICE, id)).isInstanceOf(DegradedException.class);
    }

    @Test
    void givenTheHotStoreHoldsItAsReserved_whenFinding_thenTheDatabaseIsNotAsked() {
        var reservation = reservation(ReservationStatus.RESERVED);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation));

        assertThat(service.find(ALICE, reservation.id())).contains(reservation);
        assertThat(service.view(ALICE, reservation.id()))
                .contains(new ReservationView(reservation, StatusTimes.reservedAt(NOW), null));
        verifyNoInteractions(orders);
    }

    @Test
    void givenTheBuyerCancelledItWhileReserved_whenViewing_thenTheHotStoreAnswersWithTheMomentOfTheCancellation() {
        var reservation = reservation(ReservationStatus.CANCELLED);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation));
        when(heldReservations.cancelledAt(reservation.id())).thenReturn(Optional.of(NOW.plusSeconds(4)));

        ReservationView view = service.view(ALICE, reservation.id()).orElseThrow();

        assertThat(view.reservation()).isEqualTo(reservation);
        assertThat(view.times()).isEqualTo(StatusTimes.reservedAt(NOW).with(ReservationStatus.CANCELLED, NOW.plusSeconds(4)));
        assertThat(view.ordered()).isFalse();
        verifyNoInteractions(orders);
    }

    @Test
    void givenTheHotStoreSaysOrdered_whenFinding_thenTheDatabaseOfRecordTellsTheStatusAfterwards() {
        var reservation = reservation(ReservationStatus.RESERVED);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation.transitionTo(ReservationStatus.ORDERED)));
        Order paid = Order.placed(reservation, NOW.plusSeconds(1)).closed(ReservationStatus.PAID, NOW.plusSeconds(30));
        when(orders.find(reservation.id())).thenReturn(Optional.of(paid));

        ReservationView view = service.view(ALICE, reservation.id()).orElseThrow();

        assertThat(view.reservation().status()).isEqualTo(ReservationStatus.PAID);
        assertThat(view.times()).isEqualTo(new StatusTimes(NOW, NOW.plusSeconds(1), NOW.plusSeconds(30), null, null, null));
        assertThat(view.ordered()).isTrue();
        assertThat(service.find(ALICE, reservation.id())).map(Reservation::status).contains(ReservationStatus.PAID);
    }

    @Test
    void givenTheHotStoreRestoredACancelledOrder_whenViewing_thenTheOrderAnswersWithWhenItWasOrderedAndCancelled() {
        var reservation = reservation(ReservationStatus.RESERVED);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation.transitionTo(ReservationStatus.ORDERED)
                .transitionTo(ReservationStatus.CANCELLED)));
        when(heldReservations.cancelledAt(reservation.id())).thenReturn(Optional.empty());
        Order cancelled = Order.placed(reservation, NOW.plusSeconds(1)).closed(ReservationStatus.CANCELLED, NOW.plusSeconds(5));
        when(orders.find(reservation.id())).thenReturn(Optional.of(cancelled));

        ReservationView view = service.view(ALICE, reservation.id()).orElseThrow();

        assertThat(view.reservation().status()).isEqualTo(ReservationStatus.CANCELLED);
        assertThat(view.times()).isEqualTo(new StatusTimes(NOW, NOW.plusSeconds(1), null, NOW.plusSeconds(5), null, null));
        assertThat(view.ordered()).isTrue();
    }

    @Test
    void givenTheHotStoreSaysOrderedButTheDatabaseHasNoOrder_whenFinding_thenTheHotStoreAnswers() {
        var ordered = reservation(ReservationStatus.ORDERED);
        when(heldReservations.findReservation(ordered.id())).thenReturn(Optional.of(ordered));
        when(orders.find(ordered.id())).thenReturn(Optional.empty());

        assertThat(service.find(ALICE, ordered.id())).contains(ordered);
        assertThat(service.view(ALICE, ordered.id()).orElseThrow().ordered()).isTrue();
    }

    @Test
    void givenAFailedOrder_whenViewing_thenTheReasonAndTheMomentItFailedAreShown() {
        var reservation = reservation(ReservationStatus.RESERVED);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.of(reservation.transitionTo(ReservationStatus.FAILED)));
        when(orders.find(reservation.id()))
                .thenReturn(Optional.of(Order.refused(reservation, OrderRefusal.LIMIT_EXCEEDED, NOW.plusSeconds(2))));

        ReservationView view = service.view(ALICE, reservation.id()).orElseThrow();

        assertThat(view.failureReason()).isEqualTo(OrderRefusal.LIMIT_EXCEEDED);
        assertThat(view.times().failedAt()).isEqualTo(NOW.plusSeconds(2));
        assertThat(view.ordered()).isFalse();
        assertThat(service.view(new BuyerId("mallory"), reservation.id())).isEmpty();
    }

    @Test
    void givenTheHotStoreLostTheReservation_whenFinding_thenItsOrderTellsTheStatus() {
        var reservation = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("k"),
                LINES, ReservationStatus.RESERVED, NOW);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.empty());
        when(orders.find(reservation.id())).thenReturn(Optional.of(Order.placed(reservation, NOW.plusSeconds(1))));

        assertThat(service.find(ALICE, reservation.id())).contains(reservation.transitionTo(ReservationStatus.ORDERED));
    }

    @Test
    void givenTheHotStoreLostARefusedReservation_whenFinding_thenFailed() {
        var reservation = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("k"),
                LINES, ReservationStatus.RESERVED, NOW);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.empty());
        when(orders.find(reservation.id()))
                .thenReturn(Optional.of(Order.refused(reservation, OrderRefusal.OUT_OF_STOCK, NOW.plusSeconds(1))));

        assertThat(service.find(ALICE, reservation.id())).map(Reservation::status).contains(ReservationStatus.FAILED);
    }

    @Test
    void givenOnlyTheDatabaseKnowsAnotherBuyersReservation_whenFinding_thenItLooksAbsent() {
        var reservation = new Reservation(new ReservationId("summer-sale.01JTOKEN"), SALE, ALICE, new RequestId("k"),
                LINES, ReservationStatus.RESERVED, NOW);
        when(heldReservations.findReservation(reservation.id())).thenReturn(Optional.empty());
        when(orders.find(reservation.id())).thenReturn(Optional.of(Order.placed(reservation, NOW.plusSeconds(1))));

        assertThat(service.find(new BuyerId("mallory"), reservation.id())).isEmpty();
    }
}
