package io.flashsale.application.sale.service;

import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.MoveSaleWindowCommand;
import io.flashsale.application.sale.port.out.HotStoreSaleTermsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.sale.port.out.SaleTermsPort;
import io.flashsale.application.shared.port.out.StoreContentionException;
import io.flashsale.application.shared.port.out.StoreUnavailableException;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SaleWindowChange;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.shared.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class SaleControlServiceTest {

    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final Instant STARTS_AT = Instant.parse("2030-06-01T10:00:00Z");
    private static final Instant ENDS_AT = Instant.parse("2030-06-01T12:00:00Z");
    private static final Instant NOW = STARTS_AT.plusSeconds(600);
    private static final Activity RUNNING = new Activity(SALE, "Sale", STARTS_AT, ENDS_AT, PurchaseLimit.ONE,
            Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));

    @Mock
    private ActivityStore activities;
    @Mock
    private SaleTermsPort terms;
    @Mock
    private HotStoreSaleTermsPort hotStore;
    @Mock
    private SaleChangesPort changes;

    private SaleControlService service() {
        return new SaleControlService(activities, terms, hotStore, changes, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private void recorded(Activity... reads) {
        var stubbing = when(activities.findById(SALE));
        for (Activity read : reads) {
            stubbing = stubbing.thenReturn(Optional.of(read));
        }
    }

    @Test
    void givenARunningSale_whenPaused_thenRecordedFirstThenTheHotStoreThenEveryInstanceIsTold() {
        recorded(RUNNING);
        when(terms.recordPaused(SALE, true)).thenReturn(true);

        Activity paused = service().pause(SALE);

        assertThat(paused.paused()).isTrue();
        InOrder order = inOrder(terms, hotStore, changes);
        order.verify(terms).recordPaused(SALE, true);
        order.verify(hotStore).applyPaused(SALE, true);
        order.verify(changes).announce(SALE);
    }

    @Test
    void givenAPausedSale_whenResumed_thenEachStoreIsToldNotPaused() {
        recorded(RUNNING.pause());
        when(terms.recordPaused(SALE, false)).thenReturn(true);

        assertThat(service().resume(SALE).paused()).isFalse();

        verify(hotStore).applyPaused(SALE, false);
        verify(changes).announce(SALE);
    }

    @Test
    void givenAHotStoreOutOfReach_whenPaused_thenTheCallFailsAndNobodyIsToldOfAChangeRedisLacks() {
        recorded(RUNNING);
        when(terms.recordPaused(SALE, true)).thenReturn(true);
        doThrow(new StoreUnavailableException("down", null)).when(hotStore).applyPaused(SALE, true);

        assertThatThrownBy(() -> service().pause(SALE)).isInstanceOf(StoreUnavailableException.class);

        verify(changes, never()).announce(any());
    }

    @Test
    void givenNoSuchSale_whenPaused_thenNotFoundAndNothingWritten() {
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service().pause(SALE)).isInstanceOf(ActivityNotFoundException.class);

        verifyNoInteractions(terms, hotStore, changes);
    }

    @Test
    void givenAnArchivedSale_whenPausedOrMoved_thenRefusedAsArchivedAndNothingWritten() {
        when(activities.findById(SALE)).thenReturn(Optional.of(RUNNING));
        when(activities.archivedAt(SALE)).thenReturn(Optional.of(ENDS_AT));

        assertThatThrownBy(() -> service().pause(SALE)).isInstanceOf(ActivityArchivedException.class);
        assertThatThrownBy(() -> service().move(new MoveSaleWindowCommand(SALE, null, ENDS_AT.plusSeconds(60))))
                .isInstanceOf(ActivityArchivedException.class);

        verifyNoInteractions(terms, hotStore, changes);
    }

    @Test
    void givenARunningSale_whenExtended_thenTheHotStoreGetsTheWindowAsRecorded() {
        Instant later = ENDS_AT.plusSeconds(3600);
        Activity asRecorded = new Activity(SALE, "Sale", STARTS_AT, later, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, RUNNING.items());
        recorded(RUNNING, asRecorded);
        when(terms.recordWindow(SALE, STARTS_AT, ENDS_AT, STARTS_AT, later)).thenReturn(true);

        SaleWindowChange change = service().move(new MoveSaleWindowCommand(SALE, null, later));

        assertThat(change).isEqualTo(new SaleWindowChange.Moved(asRecorded));
        InOrder order = inOrder(terms, hotStore, changes);
        order.verify(terms).recordWindow(SALE, STARTS_AT, ENDS_AT, STARTS_AT, later);
        order.verify(hotStore).applyWindow(SALE, STARTS_AT, later);
        order.verify(changes).announce(SALE);
    }

    @Test
    void givenARunningSale_whenCutShortBelowNow_thenRefusedAndNothingWritten() {
        recorded(RUNNING);

        assertThat(service().move(new MoveSaleWindowCommand(SALE, null, NOW.minusSeconds(1))))
                .isEqualTo(new SaleWindowChange.Refused(SaleWindowChange.Reason.ENDS_NOT_AFTER_NOW));

        verifyNoInteractions(terms, hotStore, changes);
    }

    @Test
    void givenAnotherMoveLandingInBetween_whenMoved_thenJudgedAgainOnTheNewWindow() {
        Instant otherEnd = ENDS_AT.plusSeconds(60);
        Instant later = ENDS_AT.plusSeconds(3600);
        Activity movedByOther = new Activity(SALE, "Sale", STARTS_AT, otherEnd, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, RUNNING.items());
        Activity asRecorded = new Activity(SALE, "Sale", STARTS_AT, later, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, RUNNING.items());
        recorded(RUNNING, movedByOther, asRecorded);
        when(terms.recordWindow(SALE, STARTS_AT, ENDS_AT, STARTS_AT, later)).thenReturn(false);
        when(terms.recordWindow(SALE, STARTS_AT, otherEnd, STARTS_AT, later)).thenReturn(true);

        assertThat(service().move(new MoveSaleWindowCommand(SALE, null, later)))
                .isEqualTo(new SaleWindowChange.Moved(asRecorded));

        verify(hotStore, times(1)).applyWindow(SALE, STARTS_AT, later);
    }

    @Test
    void givenMovesLandingInBetweenEveryTime_whenMoved_thenBusyAndTheHotStoreUntouched() {
        when(activities.findById(SALE)).thenReturn(Optional.of(RUNNING));
        when(terms.recordWindow(any(), any(), any(), any(), any())).thenReturn(false);

        assertThatThrownBy(() -> service().move(new MoveSaleWindowCommand(SALE, null, ENDS_AT.plusSeconds(60))))
                .isInstanceOf(StoreContentionException.class);

        verify(terms, times(SaleControlService.MOVE_ATTEMPTS)).recordWindow(any(), any(), any(), any(), any());
        verifyNoInteractions(hotStore, changes);
    }

    @Test
    void givenNeitherStartNorEnd_whenACommandIsMade_thenItIsInvalid() {
        assertThatThrownBy(() -> new MoveSaleWindowCommand(SALE, null, null)).isInstanceOf(InvalidValueException.class);
    }
}
