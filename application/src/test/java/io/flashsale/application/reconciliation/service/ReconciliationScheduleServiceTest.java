package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.ReconciliationPass;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.ANN;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SETTINGS;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.hot;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.inThreeSlices;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.rebuildable;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.rebuilding;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.reconciling;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.sale;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ReconciliationScheduleServiceTest {

    @Mock
    private ActivityStore activities;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    @Mock
    private HotStoreReconciliationPort hotStore;
    @Mock
    private HotStoreRebuildPort hotStoreRebuild;
    @Mock
    private RecordedStockPort recordedStock;
    @Mock
    private HotStoreSettlementPort settlement;
    @Mock
    private RecordedOrdersPort recordedOrders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private ReconciliationReportsPort reports;

    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();

    private ReconciliationScheduleService service() {
        return new ReconciliationScheduleService(activities,
                reconciling(reservationMoves, hotStore, recordedStock, recordedOrders, transitions, reports, metrics),
                rebuilding(hotStoreRebuild, settlement, recordedStock, recordedOrders, metrics), CLOCK, SETTINGS);
    }

    @Test
    void givenLoadedLostAndFailingSales_whenTheScheduleRuns_thenEachIsHandledAndTheFirstFailureThrownAtTheEnd() {
        ActivityId healthy = new ActivityId("healthy");
        ActivityId lost = new ActivityId("lost");
        ActivityId broken = new ActivityId("broken");
        ActivityId ended = new ActivityId("ended");
        Activity open = sale(healthy, NOW.minusSeconds(60), NOW.plusSeconds(60));
        Activity lostSale = sale(lost, NOW.minusSeconds(60), NOW.plusSeconds(60));
        Activity brokenSale = sale(broken, NOW.minusSeconds(60), NOW.plusSeconds(60));
        Activity endedSale = sale(ended, NOW.minusSeconds(600), NOW.minusSeconds(60));
        when(activities.findUnarchivedOverlapping(NOW, NOW.plusSeconds(60))).thenReturn(List.of(brokenSale, open, lostSale));
        when(activities.findEndedUnarchived(NOW)).thenReturn(List.of(ended));
        when(activities.findById(ended)).thenReturn(Optional.of(endedSale));
        when(hotStore.snapshot(broken)).thenThrow(new IllegalStateException("redis down"));
        when(hotStore.snapshot(healthy)).thenReturn(hot(healthy, new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "f"));
        when(recordedStock.recordedSku(eq(healthy), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 1, Map.of(ANN, 1L)));
        when(hotStore.repair(eq(healthy), any())).thenReturn(LedgerRepairResult.REPAIRED);
        when(hotStore.snapshot(lost)).thenReturn(Optional.empty())
                .thenReturn(hot(lost, new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "g"));
        when(recordedStock.recordedSku(eq(lost), eq(SKU), eq(List.of()), any())).thenReturn(recorded(10, 0, Map.of()));
        rebuildable(hotStoreRebuild, recordedOrders, lostSale);
        when(hotStore.snapshot(ended)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service().reconcileLive()).hasMessage("redis down");

        verify(hotStore).repair(eq(healthy), any());
        verify(hotStoreRebuild).finishRebuild(eq(lostSale), eq("r1"), any());
        verify(hotStoreRebuild, never()).beginRebuild(eq(ended), any());
        assertThat(metrics.repaired).extracting(ReconciliationReport::activityId).containsExactly(healthy);
    }

    @Test
    void givenASaleInSlicesAndAStoreWithoutSlices_whenTheScheduleRuns_thenItIsNeitherReconciledNorRebuiltWhole() {
        Activity sliced = inThreeSlices(sale(SALE, NOW.minusSeconds(60), NOW.plusSeconds(60)));
        when(activities.findUnarchivedOverlapping(NOW, NOW.plusSeconds(60))).thenReturn(List.of(sliced));
        when(activities.findEndedUnarchived(NOW)).thenReturn(List.of());

        ReconciliationPass pass = service().reconcileLive();

        assertThat(pass.reconciled()).isEmpty();
        assertThat(pass.rebuilt()).isEmpty();
        verifyNoInteractions(hotStore, hotStoreRebuild, recordedStock);
    }

    @Test
    void givenHealthyStores_whenTheScheduleRuns_thenItReportsWhatItReconciledAndNoFindings() {
        Activity open = sale(SALE, NOW.minusSeconds(60), NOW.plusSeconds(60));
        when(activities.findUnarchivedOverlapping(NOW, NOW.plusSeconds(60))).thenReturn(List.of(open));
        when(activities.findEndedUnarchived(NOW)).thenReturn(List.of());
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 1, 9), Map.of(ANN, 1L), List.of(), "f"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 1, Map.of(ANN, 1L)));

        ReconciliationPass pass = service().reconcileLive();

        assertThat(pass).isEqualTo(new ReconciliationPass(List.of(SALE), List.of(), List.of()));
        assertThat(metrics.reported).hasSize(1);
    }
}
