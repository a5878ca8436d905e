package io.flashsale.application.reservation.service;

import io.flashsale.application.order.port.out.OrderLookupPort;
import io.flashsale.application.reservation.model.ReserveStockCommand;
import io.flashsale.application.reservation.port.out.Deduction;
import io.flashsale.application.reservation.port.out.HeldReservationsPort;
import io.flashsale.application.reservation.port.out.ReservationAliasPort;
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
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.when;

/** The deduction log as the reservation service feeds it (ADR 0087): every attempt the store answered, no other. */
@ExtendWith(MockitoExtension.class)
class ReservationServiceDeductionLogTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final SkuId PHONE = new SkuId("phone");
    private static final SkuId CASE = new SkuId("case");
    private static final Instant NOW = Instant.parse("2030-06-01T10:15:30Z");
    private static final List<ReservationLine> LINES = List.of(new ReservationLine(PHONE, 1), new ReservationLine(CASE, 2));

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
    private final List<Deduction> logged = new ArrayList<>();
    private ReservationService service;

    @BeforeEach
    void wire() {
        // A sale of one slice, as every sale before slices (ADR 109).
        lenient().when(stock.slices(any())).thenReturn(SaleSlices.ONE);
        service = new ReservationService(stock, heldReservations, activities, orders, ids, Clock.fixed(NOW,
                                         ZoneOffset.UTC),
                KnownRefusals.remembering(Duration.ofSeconds(1), Duration.ofMillis(100)),
                ReservationAdmission.unlimited(), ReservationAliasPort.none(), RiskControl.none(), logged::add);
        when(ids.next()).thenReturn("01JTOKEN");
    }

    @Test
    void givenTheStoreAnswers_thenOneDeductionCarriesTheRequestTheBuyerTheLinesTheOutcomeAndTheTime() {
        ReservationOutcome soldOut = new ReservationOutcome.SoldOut(PHONE);
        when(stock.reserve(any())).thenReturn(soldOut);

        service.reserve(new ReserveStockCommand(SALE, new BuyerId("alice"), new RequestId("key-1"), LINES));

        assertThat(logged).singleElement().satisfies(deduction -> {
            assertThat(deduction.activityId()).isEqualTo(SALE);
            assertThat(deduction.requestId()).isEqualTo(new RequestId("key-1"));
            assertThat(deduction.buyerId()).isEqualTo(new BuyerId("alice"));
            assertThat(deduction.lines()).isEqualTo(LINES);
            assertThat(deduction.outcome()).isEqualTo(soldOut);
            assertThat(deduction.elapsed()).isPositive();
        });
    }

    @Test
    void givenNoKeyFromTheBuyer_thenTheDeductionCarriesTheKeyTheServiceGaveTheAttempt() {
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(PHONE));

        service.reserve(new ReserveStockCommand(SALE, new BuyerId("alice"), null, LINES));

        assertThat(logged).singleElement().extracting(Deduction::requestId).isEqualTo(new RequestId("01JTOKEN"));
    }

    @Test
    void givenARefusalAnsweredFromMemory_thenNoDeductionIsLogged() {
        when(stock.reserve(any())).thenReturn(new ReservationOutcome.SoldOut(PHONE));
        service.reserve(new ReserveStockCommand(SALE, new BuyerId("alice"), null, LINES));

        service.reserve(new ReserveStockCommand(SALE, new BuyerId("bob"), null, LINES));

        assertThat(logged).extracting(deduction -> deduction.buyerId().value()).containsExactly("alice");
    }
}
