package io.flashsale.application.sale.service;

import io.flashsale.application.reservation.port.out.StockReservationPort;
import io.flashsale.application.sale.model.WarmUpPass;
import io.flashsale.application.shared.port.out.HotStoreFiguresDisagreeException;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.stock.SkuStock;
import io.flashsale.domain.stock.StockLedger;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class WarmUpSchedulerTest {

    private static final Instant NOW = Instant.parse("2030-06-01T09:59:30Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final SkuId SKU = new SkuId("a");

    @Mock
    private ActivityStore activities;
    @Mock
    private StockReservationPort stock;

    private static Activity sale(String id) {
        return new Activity(new ActivityId(id), "Sale " + id, NOW.plusSeconds(30), NOW.plus(Duration.ofHours(1)),
                PurchaseLimit.ONE, Activity.DEFAULT_PAYMENT_TIMEOUT, List.of(ActivityItem.of(SKU.value(), 10)));
    }

    private static Optional<List<SkuStock>> soldOnRecord(long sold) {
        return Optional.of(List.of(new SkuStock(SKU, new StockLedger(10, 0, sold))));
    }

    private static Optional<List<SkuStock>> loaded() {
        return Optional.of(List.of(new SkuStock(SKU, StockLedger.of(10))));
    }

    /** The default lead; no grace for a load in flight, so that a lost sale is reported at once. */
    private WarmUpScheduler scheduler() {
        return new WarmUpScheduler(activities, stock, CLOCK, WarmUpScheduler.DEFAULT_LEAD, Duration.ZERO);
    }

    @Test
    void byDefaultTheScheduleLooksOneMinuteAheadOfNow() {
        when(activities.findUnarchivedOverlapping(NOW, NOW.plusSeconds(60))).thenReturn(List.of());

        WarmUpPass pass = scheduler().warmUpDue();

        assertThat(pass).isEqualTo(new WarmUpPass(List.of(), List.of()));
        verifyNoInteractions(stock);
    }

    @Test
    void givenALead_thenTheScheduleLooksThatFarAhead() {
        when(activities.findUnarchivedOverlapping(NOW, NOW.plusSeconds(5))).thenReturn(List.of());

        new WarmUpScheduler(activities, stock, CLOCK, Duration.ofSeconds(5)).warmUpDue();

        verify(activities).findUnarchivedOverlapping(NOW, NOW.plusSeconds(5));
    }

    @Test
    void givenANegativeLead_thenTheSchedulerIsRefused() {
        assertThatThrownBy(() -> new WarmUpScheduler(activities, stock, CLOCK, Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void givenADueActivityNotLoadedAndWithoutSales_whenThePassRuns_thenItIsWarmedUpAndReported() {
        Activity due = sale("due");
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(due));
        when(stock.stock(due.id())).thenReturn(Optional.empty());
        when(activities.recordedStock(due.id())).thenReturn(soldOnRecord(0));

        WarmUpPass pass = scheduler().warmUpDue();

        verify(stock).warmUp(due);
        assertThat(pass.warmedUp()).containsExactly(due.id());
        assertThat(pass.awaitingRebuild()).isEmpty();
    }

    @Test
    void givenADueActivityAlreadyLoaded_whenThePassRuns_thenItIsWarmedUpAgainToHealItsRegistrationButNotReported() {
        Activity loadedBefore = sale("loaded");
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(loadedBefore));
        when(stock.stock(loadedBefore.id())).thenReturn(loaded());

        WarmUpPass pass = scheduler().warmUpDue();

        verify(stock).warmUp(loadedBefore);
        verify(activities, never()).recordedStock(any());
        assertThat(pass.warmedUp()).isEmpty();
    }

    @Test
    void givenADueActivityWhoseFiguresOfASkuWereLost_whenThePassRuns_thenItCountsAsLoaded_andThePassDoesNotFail() {
        Activity damaged = sale("damaged");
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(damaged));
        when(stock.stock(damaged.id())).thenThrow(new HotStoreFiguresDisagreeException("the ledger of a is impossible"));

        WarmUpPass pass = scheduler().warmUpDue();

        verify(stock).warmUp(damaged);
        verify(activities, never()).recordedStock(any());
        assertThat(pass.warmedUp()).isEmpty();
        assertThat(pass.awaitingRebuild()).isEmpty();
    }

    @Test
    void givenADueActivityNotLoadedButWithSalesOnRecord_whenThePassRuns_thenItIsNotLoadedFromItsTotals() {
        Activity lost = sale("lost");
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(lost));
        when(stock.stock(lost.id())).thenReturn(Optional.empty());
        when(activities.recordedStock(lost.id())).thenReturn(soldOnRecord(3));

        WarmUpPass pass = scheduler().warmUpDue();

        verify(stock, never()).warmUp(any());
        assertThat(pass).isEqualTo(new WarmUpPass(List.of(), List.of(lost.id())));
    }

    @Test
    void givenTheStoreFailsForOneActivity_whenThePassRuns_thenTheOthersAreStillWarmedUpAndTheFailureSurfaces() {
        Activity failing = sale("failing");
        Activity fine = sale("fine");
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(failing, fine));
        var storeDown = new IllegalStateException("store down");
        when(stock.stock(failing.id())).thenThrow(storeDown);
        when(stock.stock(fine.id())).thenReturn(Optional.empty());
        when(activities.recordedStock(fine.id())).thenReturn(soldOnRecord(0));

        assertThatThrownBy(() -> scheduler().warmUpDue()).isSameAs(storeDown);

        verify(stock).warmUp(fine);
        verify(stock, never()).warmUp(failing);
    }

    /** An admin's warm-up recorded the load and its script has not run yet: the sale is being loaded, not lost. */
    @Test
    void givenAnotherWarmUpBetweenItsRecordAndItsScript_whenThePassRuns_thenItWaitsForThatLoadAndRebuildsNothing() {
        Activity inFlight = sale("in-flight");
        when(activities.findUnarchivedOverlapping(any(), any())).thenReturn(List.of(inFlight));
        when(stock.stock(inFlight.id())).thenReturn(Optional.empty(), Optional.empty(), loaded());
        when(activities.wasLoaded(inFlight.id())).thenReturn(true);

        WarmUpPass pass = new WarmUpScheduler(activities, stock, CLOCK, WarmUpScheduler.DEFAULT_LEAD,
                Duration.ofSeconds(5)).warmUpDue();

        assertThat(pass).isEqualTo(new WarmUpPass(List.of(), List.of()));
        verify(stock).warmUp(inFlight);
    }

    @Test
    void givenANegativeGrace_thenTheSchedulerIsRefused() {
        assertThatThrownBy(() -> new WarmUpScheduler(activities, stock, CLOCK, Duration.ZERO, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
