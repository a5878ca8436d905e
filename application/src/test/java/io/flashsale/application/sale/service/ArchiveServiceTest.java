package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.SettledReservationsPort;
import io.flashsale.application.sale.model.ArchiveOutcome;
import io.flashsale.application.sale.port.out.HotStoreArchivePort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.ReservationId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ArchiveServiceTest {

    private static final Instant NOW = Instant.parse("2030-06-01T12:00:00Z");
    private static final ActivityId SALE = new ActivityId("summer-sale");
    private static final Instant EARLIER = NOW.minus(Duration.ofMinutes(5));

    @Mock
    private ActivityStore activities;
    @Mock
    private HotStoreArchivePort hotStore;
    @Mock
    private SettledReservationsPort settled;
    @Mock
    private SaleChangesPort changes;

    private ArchiveService service() {
        return new ArchiveService(activities, hotStore, settled, Clock.fixed(NOW, ZoneOffset.UTC), changes);
    }

    private static Activity endingAt(ActivityId id, Instant endsAt) {
        return new Activity(id, "Sale", endsAt.minus(Duration.ofHours(1)), endsAt, PurchaseLimit.ONE,
                Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of("a", 10)));
    }

    private void ended(ActivityId id) {
        when(activities.findById(id)).thenReturn(Optional.of(endingAt(id, NOW.minusSeconds(1))));
        when(activities.archivedAt(id)).thenReturn(Optional.empty());
    }

    private void nothingInFlight(ActivityId id) {
        when(hotStore.reservedCount(id)).thenReturn(0L);
        when(hotStore.cancelledReservations(id)).thenReturn(List.of(ReservationId.of(id, "settled")));
        when(settled.unsettled(List.of(ReservationId.of(id, "settled")))).thenReturn(Set.of());
    }

    private void clearable(ActivityId id) {
        nothingInFlight(id);
        when(hotStore.delete(id)).thenReturn(true);
    }

    @Test
    void givenAnUnknownActivity_thenNotFoundAndTheHotStoreIsUntouched() {
        when(activities.findById(SALE)).thenReturn(Optional.empty());

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.NotFound());
        verifyNoInteractions(hotStore);
    }

    @Test
    void givenAnOpenSale_thenNotEndedAndNothingIsTouched() {
        when(activities.findById(SALE)).thenReturn(Optional.of(endingAt(SALE, NOW.plusMillis(1))));

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.NotEnded(NOW.plusMillis(1)));
        verifyNoInteractions(hotStore);
        verify(activities, never()).markArchived(any(), any());
    }

    @Test
    void givenASaleEndingExactlyNow_thenItHasEndedAndIsArchived() {
        when(activities.findById(SALE)).thenReturn(Optional.of(endingAt(SALE, NOW)));
        clearable(SALE);
        when(activities.markArchived(SALE, NOW)).thenReturn(true);

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.Archived(NOW));
    }

    @Test
    void givenAnEndedSaleWithNothingInFlight_thenTheHotStoreIsClearedBeforeTheDatabaseNotesTheArchive() {
        ended(SALE);
        clearable(SALE);
        when(activities.markArchived(SALE, NOW)).thenReturn(true);

        ArchiveOutcome outcome = service().archive(SALE);

        assertThat(outcome).isEqualTo(new ArchiveOutcome.Archived(NOW));
        InOrder order = inOrder(hotStore, activities);
        order.verify(hotStore).reservedCount(SALE);
        order.verify(hotStore).cancelledReservations(SALE);
        order.verify(hotStore).delete(SALE);
        order.verify(activities).markArchived(SALE, NOW);
    }

    @Test
    void givenAnArchive_whenTheDatabaseNotesIt_thenEveryInstanceIsToldTheSaleChanged() {
        ended(SALE);
        clearable(SALE);
        when(activities.markArchived(SALE, NOW)).thenReturn(true);

        service().archive(SALE);

        InOrder order = inOrder(activities, changes);
        order.verify(activities).markArchived(SALE, NOW);
        order.verify(changes).announce(SALE);
    }

    @Test
    void givenAnotherInstanceArchivedFirst_thenThisOneAnnouncesNothing() {
        ended(SALE);
        clearable(SALE);
        when(activities.markArchived(SALE, NOW)).thenReturn(false);

        service().archive(SALE);

        verifyNoInteractions(changes);
    }

    @Test
    void archivingOnlyReadsAndMarksTheDatabaseSoOrdersAndPurchasesStayAsTheyAre() {
        ended(SALE);
        clearable(SALE);
        when(activities.markArchived(SALE, NOW)).thenReturn(true);

        service().archive(SALE);

        verify(activities).findById(SALE);
        verify(activities).archivedAt(SALE);
        verify(activities).markArchived(SALE, NOW);
        verifyNoMoreInteractions(activities);
    }

    @Test
    void givenReservationsStillReserved_thenStillReservedWithTheirCountAndNothingIsDeletedOrMarked() {
        ended(SALE);
        when(hotStore.reservedCount(SALE)).thenReturn(3L);

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.StillReserved(3));
        verify(hotStore, never()).delete(any());
        verifyNoInteractions(settled);
        verify(activities, never()).markArchived(any(), any());
    }

    @Test
    void givenACancellationTheOrderPipelineHasNotRecordedYet_thenCancellationsUnsettledAndNothingIsDeletedOrMarked() {
        ended(SALE);
        ReservationId recorded = ReservationId.of(SALE, "recorded");
        ReservationId onItsWay = ReservationId.of(SALE, "onitsway");
        when(hotStore.reservedCount(SALE)).thenReturn(0L);
        when(hotStore.cancelledReservations(SALE)).thenReturn(List.of(recorded, onItsWay));
        when(settled.unsettled(List.of(recorded, onItsWay))).thenReturn(Set.of(onItsWay));

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.CancellationsUnsettled(1));
        verify(hotStore, never()).delete(any());
        verify(activities, never()).markArchived(any(), any());
    }

    @Test
    void givenAnOutboxNotDrained_thenTheDeleteRefusesAndTheActivityStaysUnarchived() {
        ended(SALE);
        nothingInFlight(SALE);
        when(hotStore.delete(SALE)).thenReturn(false);

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.OutboxNotDrained());
        verify(activities, never()).markArchived(any(), any());
    }

    @Test
    void givenAnArchivedSale_thenAlreadyArchivedWithItsTimeAndTheHotStoreIsOnlyClearedAgain() {
        when(activities.findById(SALE)).thenReturn(Optional.of(endingAt(SALE, EARLIER.minusSeconds(1))));
        when(activities.archivedAt(SALE)).thenReturn(Optional.of(EARLIER));

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.AlreadyArchived(EARLIER));
        verify(hotStore).delete(SALE);
        verifyNoMoreInteractions(hotStore);
        verify(activities, never()).markArchived(any(), any());
    }

    @Test
    void givenAnotherInstanceNotedTheArchiveFirst_thenAlreadyArchivedWithItsTime() {
        when(activities.findById(SALE)).thenReturn(Optional.of(endingAt(SALE, NOW.minusSeconds(1))));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty(), Optional.of(EARLIER));
        clearable(SALE);
        when(activities.markArchived(SALE, NOW)).thenReturn(false);

        assertThat(service().archive(SALE)).isEqualTo(new ArchiveOutcome.AlreadyArchived(EARLIER));
    }

    @Test
    void givenEndedSales_whenThePassRuns_thenItReportsOnlyThoseItArchived() {
        ActivityId ready = new ActivityId("ready");
        ActivityId busy = new ActivityId("busy");
        when(activities.findEndedUnarchived(NOW)).thenReturn(List.of(busy, ready));
        ended(busy);
        when(hotStore.reservedCount(busy)).thenReturn(1L);
        ended(ready);
        clearable(ready);
        when(activities.markArchived(ready, NOW)).thenReturn(true);

        assertThat(service().archiveDue()).containsExactly(ready);
        verify(hotStore, never()).delete(busy);
    }

    @Test
    void givenTheHotStoreFailsForOneSale_whenThePassRuns_thenTheOthersAreStillArchivedAndTheFailureSurfaces() {
        ActivityId failing = new ActivityId("failing");
        ActivityId fine = new ActivityId("fine");
        when(activities.findEndedUnarchived(NOW)).thenReturn(List.of(failing, fine));
        ended(failing);
        var storeDown = new IllegalStateException("store down");
        when(hotStore.reservedCount(failing)).thenThrow(storeDown);
        ended(fine);
        clearable(fine);
        when(activities.markArchived(fine, NOW)).thenReturn(true);

        assertThatThrownBy(() -> service().archiveDue()).isSameAs(storeDown);
        verify(activities).markArchived(fine, NOW);
        verify(activities, never()).markArchived(failing, NOW);
    }

    @Test
    void givenNothingEnded_whenThePassRuns_thenNothingIsArchivedAndTheHotStoreIsUntouched() {
        when(activities.findEndedUnarchived(NOW)).thenReturn(List.of());

        assertThat(service().archiveDue()).isEmpty();
        verifyNoInteractions(hotStore);
    }
}
