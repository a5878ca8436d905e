package io.flashsale.application.service;

import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.StockReservationPort;
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

import static io.flashsale.application.service.LifecycleFixtures.NOW;
import static io.flashsale.application.service.LifecycleFixtures.SALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ExpiryServiceTest {

    private static final ReservationId FIRST = ReservationId.of(SALE, "first");
    private static final ReservationId SECOND = ReservationId.of(SALE, "second");
    private static final ReservationId THIRD = ReservationId.of(SALE, "third");

    @Mock
    private OrderRepository orders;
    @Mock
    private StockReservationPort stock;
    private ExpiryService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new ExpiryService(orders, stock, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void givenTwoDueOrders_thenBothExpireInTheDatabaseAndTheHotStoreRestoresEach() {
        when(orders.expireNextDue(NOW)).thenReturn(Optional.of(FIRST), Optional.of(SECOND), Optional.empty());
        when(stock.restore(any(), any())).thenReturn(true);

        assertThat(service.expireDue(10)).isEqualTo(2);

        verify(stock).restore(FIRST, ReservationStatus.EXPIRED);
        verify(stock).restore(SECOND, ReservationStatus.EXPIRED);
        verify(orders).hotStoreRestored(FIRST);
        verify(orders).hotStoreRestored(SECOND);
    }

    @Test
    void givenMoreDueThanTheMaximum_thenThePassStopsAtTheMaximum() {
        when(orders.expireNextDue(NOW)).thenReturn(Optional.of(FIRST), Optional.of(SECOND), Optional.of(THIRD));
        when(stock.restore(any(), any())).thenReturn(true);

        assertThat(service.expireDue(2)).isEqualTo(2);

        verify(orders, times(2)).expireNextDue(NOW);
    }

    @Test
    void givenTheHotStoreFails_thenThePassStillExpiresInTheDatabaseAndStopsAskingTheHotStore() {
        when(orders.expireNextDue(NOW)).thenReturn(Optional.of(FIRST), Optional.of(SECOND), Optional.of(THIRD),
                Optional.empty());
        when(stock.restore(FIRST, ReservationStatus.EXPIRED)).thenThrow(new IllegalStateException("redis unavailable"));

        assertThat(service.expireDue(10)).isEqualTo(3);

        verify(stock).restore(FIRST, ReservationStatus.EXPIRED);
        verify(stock, never()).restore(SECOND, ReservationStatus.EXPIRED);
        verify(orders, never()).hotStoreRestored(any());
    }

    @Test
    void givenNothingDue_thenZeroAndTheHotStoreIsNotAsked() {
        when(orders.expireNextDue(NOW)).thenReturn(Optional.empty());

        assertThat(service.expireDue(10)).isZero();

        verifyNoInteractions(stock);
    }

    @Test
    void givenANonPositiveMaximum_thenRefused() {
        assertThatThrownBy(() -> service.expireDue(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
