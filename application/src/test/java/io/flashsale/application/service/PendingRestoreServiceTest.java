package io.flashsale.application.service;

import io.flashsale.application.port.out.OrderRepository;
import io.flashsale.application.port.out.PendingRestore;
import io.flashsale.application.port.out.StockReservationPort;
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
import java.util.List;
import java.util.Optional;

import static io.flashsale.application.service.LifecycleFixtures.NOW;
import static io.flashsale.application.service.LifecycleFixtures.SALE;
import static io.flashsale.application.service.LifecycleFixtures.held;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class PendingRestoreServiceTest {

    private static final ReservationId CANCELLED = ReservationId.of(SALE, "cancelled");
    private static final ReservationId EXPIRED = ReservationId.of(SALE, "expired");

    @Mock
    private OrderRepository orders;
    @Mock
    private StockReservationPort stock;
    private PendingRestoreService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new PendingRestoreService(orders, stock, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private void due(PendingRestore... pending) {
        when(orders.dueHotStoreRestores(NOW, 50)).thenReturn(List.of(pending));
    }

    @Test
    void givenDueRestores_thenTheHotStoreRestoresEachWithItsOwnStatusAndEachIsMarkedDone() {
        due(new PendingRestore(CANCELLED, ReservationStatus.CANCELLED), new PendingRestore(EXPIRED, ReservationStatus.EXPIRED));
        when(stock.restore(any(), any())).thenReturn(true);

        assertThat(service.completePendingRestores(50)).isEqualTo(2);

        verify(stock).restore(CANCELLED, ReservationStatus.CANCELLED);
        verify(stock).restore(EXPIRED, ReservationStatus.EXPIRED);
        verify(orders).hotStoreRestored(CANCELLED);
        verify(orders).hotStoreRestored(EXPIRED);
    }

    @Test
    void givenTheHotStoreGaveTheUnitsBackAlready_thenTheRestoreIsMarkedDoneWithoutGivingThemBackAgain() {
        due(new PendingRestore(CANCELLED, ReservationStatus.CANCELLED));
        when(stock.findReservation(CANCELLED)).thenReturn(Optional.of(reservation(CANCELLED, ReservationStatus.CANCELLED)));

        assertThat(service.completePendingRestores(50)).isEqualTo(1);

        verify(orders).hotStoreRestored(CANCELLED);
    }

    @Test
    void givenTheHotStoreLostTheReservation_thenThereIsNothingToGiveBackThereAndTheRestoreIsMarkedDone() {
        due(new PendingRestore(EXPIRED, ReservationStatus.EXPIRED));
        when(stock.findReservation(EXPIRED)).thenReturn(Optional.empty());

        assertThat(service.completePendingRestores(50)).isEqualTo(1);

        verify(orders).hotStoreRestored(EXPIRED);
    }

    @Test
    void givenTheHotStoreHasNotConfirmedTheOrderYet_thenTheRestoreIsPostponedAndNotCounted() {
        due(new PendingRestore(EXPIRED, ReservationStatus.EXPIRED));
        when(stock.findReservation(EXPIRED)).thenReturn(Optional.of(reservation(EXPIRED, ReservationStatus.RESERVED)));

        assertThat(service.completePendingRestores(50)).isZero();

        verify(orders).postponeHotStoreRestore(EXPIRED, NOW.plus(HotStoreRestores.RETRY_AFTER));
        verify(orders, never()).hotStoreRestored(any());
    }

    @Test
    void givenTheHotStoreFails_thenTheSweepFailsLoudlyAndTheRestoreStaysDue() {
        due(new PendingRestore(CANCELLED, ReservationStatus.CANCELLED));
        var redisDown = new IllegalStateException("redis unavailable");
        when(stock.restore(CANCELLED, ReservationStatus.CANCELLED)).thenThrow(redisDown);

        assertThatThrownBy(() -> service.completePendingRestores(50)).isSameAs(redisDown);

        verify(orders, never()).hotStoreRestored(any());
    }

    @Test
    void aPendingRestoreIsOnlyEverCancelledOrExpired() {
        for (ReservationStatus wrong : List.of(ReservationStatus.PAID, ReservationStatus.ORDERED, ReservationStatus.FAILED,
                ReservationStatus.RESERVED)) {
            assertThatThrownBy(() -> new PendingRestore(CANCELLED, wrong)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static Reservation reservation(ReservationId id, ReservationStatus status) {
        Reservation held = held(status);
        return new Reservation(id, SALE, held.buyerId(), held.requestId(), held.lines(), status, held.reservedAt());
    }
}
