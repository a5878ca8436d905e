package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.PipelineMark;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.slice.TransferState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.ANN;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.BOB;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.inThreeSlices;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * ADR 111: of a sale in slices, only the slices the hot store lost are rebuilt, each from the orders made in it and
 * its allotment; the lost slice's transfers are settled in the database first, so a unit a step carried before the
 * loss counts once; the pipeline is waited for through the lost slices' outboxes alone.
 */
@ExtendWith(MockitoExtension.class)
class LostSliceRebuildTest {

    /** The SKU's 10 units in three slices: 4, 3 and 3. */
    private static final Activity SLICED = inThreeSlices(OPEN_SALE);
    private static final SaleSlice S0 = new SaleSlice(SALE, 0, SLICED.slices());
    private static final SaleSlice S1 = new SaleSlice(SALE, 1, SLICED.slices());
    private static final SaleSlice S2 = new SaleSlice(SALE, 2, SLICED.slices());

    @Mock
    private ActivityStore activities;
    @Mock
    private HotStoreRebuildPort wholeSale;
    @Mock
    private SliceRebuildPort hotStore;
    @Mock
    private HotStoreSettlementPort settlement;
    @Mock
    private RecordedStockPort recordedStock;
    @Mock
    private RecordedOrdersPort recordedOrders;
    @Mock
    private RecordedSliceOrdersPort sliceOrders;
    @Mock
    private RecordedSliceStockPort sliceFigures;
    @Mock
    private StockTransfersPort transfers;
    @Mock
    private RelayedEventsPort relayed;
    @Mock
    private RecoveryMarkPort marks;
    @Mock
    private PipelinePositionPort pipeline;

    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();

    private RebuildPorts ports() {
        return new RebuildPorts(wholeSale, settlement, relayed, marks, pipeline, recordedStock, recordedOrders,
                metrics, Optional.of(new SliceRebuildPorts(hotStore, sliceOrders, sliceFigures, transfers)));
    }

    private LedgerRebuildService service() {
        return new LedgerRebuildService(activities, ports(), CLOCK);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(SLICED));
        lenient().when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    /** Slice 1 lost; the pipeline has landed everything; slices 0 and 2 are loaded. */
    private void sliceOneLost() {
        when(hotStore.loaded(S0)).thenReturn(true);
        when(hotStore.loaded(S1)).thenReturn(false);
        when(hotStore.loaded(S2)).thenReturn(true);
        when(hotStore.outboxDrained(S1)).thenReturn(true);
        PipelineMark mark = new PipelineMark(Map.of(0, 10L));
        when(marks.recoveryMark(SALE)).thenReturn(Optional.of(mark));
        when(pipeline.consumed()).thenReturn(mark);
    }

    private void startsAndFinishes(SaleSlice slice) {
        when(hotStore.beginRebuild(slice, NOW)).thenReturn(new RebuildStart.Started("r1", Optional.empty(), NOW));
        lenient().when(hotStore.finishRebuild(eq(SLICED), eq(slice), eq("r1"), any(), any())).thenReturn(true);
        lenient().when(recordedOrders.closedSince(eq(SALE), any())).thenReturn(List.of());
    }

    private static StockTransfer transfer(long id, int from, int to, long units) {
        return StockTransfer.requested(id, SALE, SKU, from, to, units, NOW.minusSeconds(30));
    }

    private static Order ordered(SaleSlice slice, String token, BuyerId buyer, int units) {
        Instant at = NOW.minusSeconds(60);
        return new Order(ReservationId.of(slice, token), buyer, new RequestId("q" + token),
                List.of(new ReservationLine(SKU, units)), ReservationStatus.ORDERED, null, at, at);
    }

    @SuppressWarnings("unchecked")
    private List<SkuRebuild> finishedFigures(SaleSlice slice) {
        ArgumentCaptor<List<SkuRebuild>> figures = ArgumentCaptor.forClass(List.class);
        verify(hotStore).finishRebuild(eq(SLICED), eq(slice), eq("r1"), figures.capture(), any());
        return figures.getValue();
    }

    @Test
    void givenOneSliceLost_thenItAloneIsRebuiltFromItsOrders_withItsAllotmentAsTotal() {
        openSale();
        sliceOneLost();
        startsAndFinishes(S1);
        // Slice 1 was given 2 units by a done transfer and gave 1 by a taken one: 3 + 2 - 1 = 4.
        StockTransfer in = transfer(7, 0, 1, 2).taken(2).done();
        StockTransfer out = transfer(8, 1, 2, 1).taken(1);
        when(transfers.findByActivity(SALE)).thenReturn(List.of(in, out));
        List<Order> page = List.of(ordered(S1, "a", ANN, 2), ordered(S1, "b", BOB, 1));
        when(sliceOrders.ordersAfter(S1, Optional.empty(), LedgerRebuild.PAGE)).thenReturn(page);
        when(sliceOrders.ordersAfter(S1, Optional.of(page.getLast().id()), LedgerRebuild.PAGE)).thenReturn(List.of());
        when(hotStore.rebuildPage(S1, "r1", Optional.empty(), page.getLast().id(), page)).thenReturn(true);
        when(sliceFigures.recordedSlice(S1, SKU, List.of(), PurchaseScope.SUM_ONLY)).thenReturn(recorded(10, 3,
                Map.of()));

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.REBUILT);

        assertThat(finishedFigures(S1)).singleElement().satisfies(sku -> {
            assertThat(sku.total()).isEqualTo(4);
            assertThat(sku.sold()).isEqualTo(3);
        });
        verify(hotStore, never()).beginRebuild(eq(S0), any());
        verify(hotStore, never()).beginRebuild(eq(S2), any());
        verify(marks).clearRecoveryMark(SALE);
        assertThat(metrics.rebuilt).containsExactly(SALE);
    }

    @Test
    void givenTheLostSlicesTransfersInFlight_thenTheDatabaseSettlesThemBeforeTheAllotmentIsRead() {
        openSale();
        sliceOneLost();
        startsAndFinishes(S1);
        StockTransfer untaken = transfer(1, 1, 0, 2);
        StockTransfer arriving = transfer(2, 2, 1, 3).taken(3);
        StockTransfer othersOwn = transfer(3, 0, 2, 1);
        when(transfers.findByActivity(SALE)).thenReturn(List.of(untaken, arriving, othersOwn),
                List.of(untaken.taken(0), arriving.done(), othersOwn));
        when(sliceOrders.ordersAfter(S1, Optional.empty(), LedgerRebuild.PAGE)).thenReturn(List.of());
        when(sliceFigures.recordedSlice(S1, SKU, List.of(), PurchaseScope.SUM_ONLY)).thenReturn(recorded(10, 0,
                Map.of()));

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.REBUILT);

        // What slice 1 had not given it gives nothing; what was on its way to it, it holds: 3 + 3.
        verify(transfers).advance(untaken, untaken.taken(0));
        verify(transfers).advance(arriving, arriving.done());
        verify(transfers, never()).advance(eq(othersOwn), any());
        assertThat(untaken.taken(0).state()).isEqualTo(TransferState.DONE);
        assertThat(finishedFigures(S1)).singleElement().satisfies(sku -> assertThat(sku.total()).isEqualTo(6));
    }

    @Test
    void givenTheLostSlicesOutboxNotDrained_thenItWaitsForThePipeline_whateverTheOtherSlicesHold() {
        openSale();
        when(hotStore.loaded(S0)).thenReturn(true);
        when(hotStore.loaded(S1)).thenReturn(false);
        when(hotStore.loaded(S2)).thenReturn(true);
        when(hotStore.outboxDrained(S1)).thenReturn(false);

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.AWAITING_PIPELINE);

        verify(hotStore, never()).beginRebuild(any(), any());
        verify(hotStore, never()).outboxDrained(S0);
        verify(relayed, never()).outboxDrained(SALE);
    }

    @Test
    void givenTheBrokerNotConsumedToTheMark_thenNothingIsRebuiltYet() {
        openSale();
        when(hotStore.loaded(any())).thenReturn(false);
        when(hotStore.outboxDrained(any())).thenReturn(true);
        when(marks.recoveryMark(SALE)).thenReturn(Optional.empty());
        when(pipeline.ends()).thenReturn(new PipelineMark(Map.of(0, 10L)));
        when(pipeline.consumed()).thenReturn(new PipelineMark(Map.of(0, 9L)));

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.AWAITING_PIPELINE);

        verify(marks).keepRecoveryMark(SALE, new PipelineMark(Map.of(0, 10L)));
        verify(hotStore, never()).beginRebuild(any(), any());
    }

    @Test
    void givenEverySliceLoaded_thenAlreadyLoaded_andNothingBegun() {
        openSale();
        when(hotStore.loaded(any())).thenReturn(true);

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.ALREADY_LOADED);

        verify(hotStore, never()).beginRebuild(any(), any());
    }

    @Test
    void givenAnotherRunnerRebuildingTheSlice_thenInProgress_andTheMarkKept() {
        openSale();
        sliceOneLost();
        when(hotStore.beginRebuild(S1, NOW)).thenReturn(new RebuildStart.Rebuilding());

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.IN_PROGRESS);

        verify(sliceOrders, never()).ordersAfter(any(), any(), anyInt());
        verify(marks, never()).clearRecoveryMark(SALE);
    }

    @Test
    void givenOrdersOfTheSliceClosedWhileItWasRebuilt_thenTheyAreRestored_andOtherSlicesOrdersAreNot() {
        openSale();
        sliceOneLost();
        startsAndFinishes(S1);
        when(transfers.findByActivity(SALE)).thenReturn(List.of());
        when(sliceOrders.ordersAfter(S1, Optional.empty(), LedgerRebuild.PAGE)).thenReturn(List.of());
        when(sliceFigures.recordedSlice(S1, SKU, List.of(), PurchaseScope.SUM_ONLY)).thenReturn(recorded(10, 0,
                Map.of()));
        Order ofSliceOne = ordered(S1, "c", ANN, 1).closed(ReservationStatus.EXPIRED, NOW);
        Order ofSliceTwo = ordered(S2, "d", BOB, 1).closed(ReservationStatus.EXPIRED, NOW);
        when(recordedOrders.closedSince(SALE, NOW.minus(LedgerRebuild.CLOCK_MARGIN)))
                .thenReturn(List.of(ofSliceOne, ofSliceTwo));

        service().rebuild(SALE);

        verify(settlement).restore(SALE, List.of(PendingRestore.of(ofSliceOne)));
    }

    @Test
    void givenTheSlicesOrdersHoldingMoreThanItsAllotment_thenNothingIsFinished() {
        openSale();
        sliceOneLost();
        when(hotStore.beginRebuild(S1, NOW)).thenReturn(new RebuildStart.Started("r1", Optional.empty(), NOW));
        when(transfers.findByActivity(SALE)).thenReturn(List.of());
        when(sliceOrders.ordersAfter(S1, Optional.empty(), LedgerRebuild.PAGE)).thenReturn(List.of());
        when(sliceFigures.recordedSlice(S1, SKU, List.of(), PurchaseScope.SUM_ONLY)).thenReturn(recorded(10, 4,
                Map.of()));

        assertThatThrownBy(() -> service().rebuild(SALE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("more than its allotment of 3");

        verify(hotStore, never()).finishRebuild(any(), any(), any(), any(), any());
    }

    @Test
    void givenStoresWithoutSlices_thenASaleInSlicesIsRefused() {
        openSale();
        RebuildPorts withoutSlices = new RebuildPorts(wholeSale, settlement, relayed, marks, pipeline, recordedStock,
                recordedOrders, metrics);

        assertThatThrownBy(() -> new LedgerRebuildService(activities, withoutSlices, CLOCK).rebuild(SALE))
                .isInstanceOf(SaleInSlicesException.class);
    }
}
