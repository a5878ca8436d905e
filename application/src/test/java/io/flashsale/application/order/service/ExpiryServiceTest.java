package io.flashsale.application.order.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.order.port.out.RestoreQueuePort;
import io.flashsale.domain.activity.ActivityId;
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
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ExpiryServiceTest {

    private static final ActivityId OTHER_SALE = new ActivityId("other-sale");
    private static final ReservationId FIRST = ReservationId.of(SALE, "first");
    private static final ReservationId SECOND = ReservationId.of(SALE, "second");
    private static final ReservationId ELSEWHERE = ReservationId.of(OTHER_SALE, "third");

    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private RestoreQueuePort restoreQueue;
    @Mock
    private HotStoreSettlementPort hotStore;
    private ExpiryService service;

    @BeforeEach
    void wireWithAFixedClock() {
        service = new ExpiryService(transitions, restoreQueue, hotStore, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void givenDueOrdersOfTwoSales_thenOneDatabaseBatchOneHotStoreScriptPerSaleAndOneStatementMarksThemDone() {
        when(transitions.expireDue(NOW, 10)).thenReturn(List.of(expired(FIRST), expired(SECOND), expired(ELSEWHERE)));
        when(hotStore.restore(SALE,
                List.of(pending(FIRST, ReservationStatus.EXPIRED), pending(SECOND, ReservationStatus.EXPIRED))))
                .thenReturn(Map.of(FIRST, ReservationStatus.ORDERED, SECOND, ReservationStatus.ORDERED));
        when(hotStore.restore(OTHER_SALE, List.of(pending(ELSEWHERE, ReservationStatus.EXPIRED))))
                .thenReturn(Map.of(ELSEWHERE, ReservationStatus.ORDERED));

        assertThat(service.expireDue(10)).isEqualTo(3);

        verify(restoreQueue).hotStoreRestoredAll(List.of(FIRST, SECOND, ELSEWHERE));
    }

    @Test
    void givenAnOrderTheHotStoreHasNotConfirmedYet_thenItsRestoreIsPostponedAndTheOthersAreDone() {
        when(transitions.expireDue(NOW, 10)).thenReturn(List.of(expired(FIRST), expired(SECOND)));
        when(hotStore.restore(any(), any())).thenReturn(Map.of(FIRST, ReservationStatus.RESERVED));

        assertThat(service.expireDue(10)).isEqualTo(2);

        verify(restoreQueue).postponeHotStoreRestore(FIRST, NOW.plus(HotStoreRestores.RETRY_AFTER));
        // SECOND is unknown to the hot store: nothing is left to give back there.
        verify(restoreQueue).hotStoreRestoredAll(List.of(SECOND));
    }

    @Test
    void givenTheHotStoreFails_thenTheOrdersStayExpiredWithTheirRestoresDue() {
        when(transitions.expireDue(NOW, 10)).thenReturn(List.of(expired(FIRST)));
        when(hotStore.restore(any(), any())).thenThrow(new IllegalStateException("redis unavailable"));

        assertThat(service.expireDue(10)).isEqualTo(1);

        verify(restoreQueue, never()).hotStoreRestoredAll(any());
    }

    @Test
    void givenNothingDue_thenZeroAndTheHotStoreIsNotAsked() {
        when(transitions.expireDue(NOW, 10)).thenReturn(List.of());

        assertThat(service.expireDue(10)).isZero();

        verifyNoInteractions(hotStore);
    }

    @Test
    void givenANonPositiveMaximum_thenRefused() {
        assertThatThrownBy(() -> service.expireDue(0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static PendingRestore expired(ReservationId id) {
        return pending(id, ReservationStatus.EXPIRED);
    }
}
