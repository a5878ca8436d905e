package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
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
import java.util.Map;

import static io.flashsale.application.order.service.LifecycleFixtures.NOW;
import static io.flashsale.application.order.service.LifecycleFixtures.SALE;
import static io.flashsale.application.order.service.RestoreFixtures.pending;
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
    private RestoreQueuePort restoreQueue;
    @Mock
    private HotStoreSettlementPort hotStore;
    private PendingRestoreService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new PendingRestoreService(restoreQueue, hotStore, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private void due(PendingRestore... pending) {
        when(restoreQueue.dueHotStoreRestores(NOW, 50)).thenReturn(List.of(pending));
    }

    @Test
    void givenDueRestores_thenOneScriptRestoresEachWithItsOwnStatusAndOneStatementMarksThemDone() {
        due(pending(CANCELLED, ReservationStatus.CANCELLED), pending(EXPIRED, ReservationStatus.EXPIRED));
        when(hotStore.restore(SALE,
                List.of(pending(CANCELLED, ReservationStatus.CANCELLED), pending(EXPIRED, ReservationStatus.EXPIRED))))
                .thenReturn(Map.of(CANCELLED, ReservationStatus.ORDERED, EXPIRED, ReservationStatus.ORDERED));

        assertThat(service.completePendingRestores(50)).isEqualTo(2);

        verify(restoreQueue).hotStoreRestoredAll(List.of(CANCELLED, EXPIRED));
    }

    @Test
    void givenTheHotStoreGaveTheUnitsBackAlreadyOrLostTheReservation_thenTheRestoresAreMarkedDone() {
        due(pending(CANCELLED, ReservationStatus.CANCELLED), pending(EXPIRED, ReservationStatus.EXPIRED));
        when(hotStore.restore(any(), any())).thenReturn(Map.of(CANCELLED, ReservationStatus.CANCELLED));

        assertThat(service.completePendingRestores(50)).isEqualTo(2);

        verify(restoreQueue).hotStoreRestoredAll(List.of(CANCELLED, EXPIRED));
    }

    @Test
    void givenTheHotStoreHasNotConfirmedTheOrderYet_thenTheRestoreIsPostponedAndNotCounted() {
        due(pending(EXPIRED, ReservationStatus.EXPIRED));
        when(hotStore.restore(any(), any())).thenReturn(Map.of(EXPIRED, ReservationStatus.RESERVED));

        assertThat(service.completePendingRestores(50)).isZero();

        verify(restoreQueue).postponeHotStoreRestore(EXPIRED, NOW.plus(HotStoreRestores.RETRY_AFTER));
        verify(restoreQueue, never()).hotStoreRestoredAll(any());
    }

    @Test
    void givenTheHotStoreFails_thenTheSweepFailsLoudlyAndTheRestoreStaysDue() {
        due(pending(CANCELLED, ReservationStatus.CANCELLED));
        var redisDown = new IllegalStateException("redis unavailable");
        when(hotStore.restore(any(), any())).thenThrow(redisDown);

        assertThatThrownBy(() -> service.completePendingRestores(50)).isSameAs(redisDown);

        verify(restoreQueue, never()).hotStoreRestoredAll(any());
    }

    @Test
    void aPendingRestoreIsOnlyEverCancelledOrExpired() {
        for (ReservationStatus wrong : List.of(ReservationStatus.PAID, ReservationStatus.ORDERED, ReservationStatus.FAILED,
                ReservationStatus.RESERVED)) {
            assertThatThrownBy(() -> pending(CANCELLED, wrong)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
