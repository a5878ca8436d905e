package io.flashsale.application.reservation.service;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.AcceptedRequestsPort;
import io.flashsale.application.reservation.port.out.AcceptedRequestsSnapshotPort;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.shared.port.out.IdGeneratorPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationOutcome;
import io.flashsale.domain.slice.SaleSlices;
import org.junit.jupiter.api.BeforeEach;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/** The sold-out fast path as the reservation service uses it: which attempts are answered without the store. */
@ExtendWith(MockitoExtension.class)
class ReservationServiceKnownRefusalsTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final SkuId PHONE = new SkuId("phone");
    private static final Instant NOW = Instant.parse("2030-06-01T10:15:30Z");
    private static final List<ReservationLine> LINES = List.of(new ReservationLine(PHONE, 1));
    private static final ReservationOutcome SOLD_OUT = new ReservationOutcome.SoldOut(PHONE);

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
    private final KnownRefusals known = KnownRefusals.remembering(Duration.ofSeconds(1), Duration.ofMillis(100));
    private ReservationService service;

    @BeforeEach
    void wire() {
        // A sale of one slice, as every sale before slices (ADR 109).
        lenient().when(stock.slices(any())).thenReturn(SaleSlices.ONE);
        service = new ReservationService(stock, heldReservations, activities, orders, ids, Clock.fixed(NOW,
                                         ZoneOffset.UTC), known);
        when(ids.next()).thenReturn("01JTOKEN");
        when(stock.reserve(any())).thenReturn(SOLD_OUT);
    }

    private ReservationOutcome attempt(String buyer, RequestId key) {
        return service.reserve(new ReserveStockCommand(SALE, new BuyerId(buyer), key, LINES));
    }

    @Test
    void givenTheStoreSaidSoldOut_whenTheCrowdAsksAgain_thenTheStoreIsNotAskedAgain() {
        assertThat(attempt("b1", null)).isEqualTo(SOLD_OUT);
        for (int i = 2; i <= 50; i++) {
            assertThat(attempt("b" + i, null)).isEqualTo(SOLD_OUT);
        }

        verify(stock, times(1)).reserve(any());
    }

    @Test
    void givenAKnownSoldOutSku_whenTheAttemptCarriesAnIdempotencyKey_thenTheStoreDecides() {
        attempt("b1", null);

        attempt("b2", new RequestId("retry-of-an-accepted-attempt"));

        verify(stock, times(2)).reserve(any());
    }

    @Test
    void givenAKnownSoldOutSkuAndItsAcceptedKeys_whenNewKeysAttempt_thenOnlyAKeyThatMayHaveBeenAcceptedAsksTheStore() {
        AcceptedRequestsSnapshotPort acceptedKeys = (buyer, key) -> key.value().equals("accepted-before");
        AcceptedRequestsPort keys = activityId -> Optional.of(acceptedKeys);
        service = new ReservationService(stock, heldReservations, activities, orders, ids, Clock.fixed(NOW,
                                         ZoneOffset.UTC),
                KnownRefusals.remembering(Duration.ofSeconds(1), Duration.ofMillis(100), keys, Duration.ofSeconds(1)));
        attempt("b1", new RequestId("first"));

        for (int i = 2; i <= 50; i++) {
            assertThat(attempt("b" + i, new RequestId("new-" + i))).isEqualTo(SOLD_OUT);
        }
        attempt("b1", new RequestId("accepted-before"));

        verify(stock, times(2)).reserve(any());
    }

    @Test
    void givenAKnownSoldOutSku_whenUnitsReturn_thenTheNextAttemptAsksTheStore() {
        attempt("b1", null);

        known.returned(SALE);
        attempt("b2", null);

        verify(stock, times(2)).reserve(any());
    }
}
