package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.slice.SaleSlice;
import io.flashsale.domain.slice.StockTransfer;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.StockAdjustment;
import io.flashsale.domain.stock.StockLedger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.hot;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.inThreeSlices;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * ADR 112: an audited stock adjustment of a sale in slices gives each slice its part (its share of the new total less
 * its share of the old); a reduction first brings a slice short of its part the units by a stock transfer; a slice
 * that refuses its part is reconciled from the database's truth, as a whole sale is.
 */
@ExtendWith(MockitoExtension.class)
class SlicedAdjustmentTest {

    private static final String REASON = "counted the shelf again";
    private static final String OPERATOR = "admin-7";
    /** The SKU's 10 units in three slices: 4, 3 and 3. */
    private static final Activity SLICED = inThreeSlices(OPEN_SALE);
    private static final SaleSlice S0 = new SaleSlice(SALE, 0, SLICED.slices());
    private static final SaleSlice S1 = new SaleSlice(SALE, 1, SLICED.slices());
    private static final SaleSlice S2 = new SaleSlice(SALE, 2, SLICED.slices());

    @Mock
    private ActivityStore activities;
    @Mock
    private StockAdjustmentsPort adjustments;
    @Mock
    private ReservationTransitionsPort reservationMoves;
    @Mock
    private HotStoreReconciliationPort hotStore;
    @Mock
    private HotStoreAdjustmentPort hotStoreAdjustments;
    @Mock
    private RecordedStockPort recordedStock;
    @Mock
    private ReconciliationReportsPort reports;
    @Mock
    private RecordedOrdersPort recordedOrders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private SaleChangesPort changes;
    @Mock
    private SliceAdjustmentPort sliceAdjustments;
    @Mock
    private SliceStockPort sliceStock;
    @Mock
    private TransferStockUseCase transfers;
    @Mock
    private SliceReconciliationPort sliceStore;
    @Mock
    private RecordedSliceStockPort recordedSlices;
    @Mock
    private StockTransfersPort transferRows;

    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();

    private StockAdjustmentService service() {
        SlicedAdjustmentPorts slices = new SlicedAdjustmentPorts(sliceAdjustments, sliceStock, transfers,
                new SliceReconcilingPorts(sliceStore, recordedSlices, transferRows));
        return new StockAdjustmentService(new StockAdjustmentService.Ports(activities, activities, adjustments,
                reservationMoves, hotStore, hotStoreAdjustments, RelayedEventsPort.NONE, recordedStock,
                recordedOrders, transitions, reports, metrics, changes, Optional.of(slices)), CLOCK,
                ReconciliationSettings.DEFAULTS);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(SLICED));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    private static StockAdjustment adjustment(long id, long delta, long before) {
        return new StockAdjustment(id, SALE, SKU, delta, before, before + delta, 0, OPERATOR, REASON, NOW);
    }

    private void recordedInTheDatabase(long delta, long before) {
        when(adjustments.record(SALE, SKU, delta, OPERATOR, REASON, NOW))
                .thenReturn(new AdjustmentRecording.Recorded(adjustment(41, delta, before)));
    }

    private void applies(SaleSlice slice, long part, StockLedger after) {
        when(sliceAdjustments.adjust(slice, SKU, part, 41)).thenReturn(new LedgerAdjustment.Applied(after));
    }

    @Test
    void givenAnIncrease_thenEachSliceTakesItsShareOfTheNewTotalLessItsShareOfTheOld_andTheLedgersAreSummed() {
        openSale();
        recordedInTheDatabase(5, 10);
        // 10 units were 4, 3, 3; 15 are 5, 5, 5.
        applies(S0, 1, new StockLedger(5, 0, 1));
        applies(S1, 2, new StockLedger(5, 1, 0));
        applies(S2, 2, new StockLedger(5, 0, 0));

        StockAdjustmentResult result = service().adjust(SALE, SKU, 5, REASON, OPERATOR);

        assertThat(result).isInstanceOfSatisfying(StockAdjustmentResult.Adjusted.class, adjusted -> {
            assertThat(adjusted.hotStore()).isEqualTo(new LedgerAdjustment.Applied(new StockLedger(15, 1, 1)));
            assertThat(adjusted.reconciliation()).isEmpty();
        });
        verifyNoInteractions(hotStoreAdjustments, transfers, sliceStock);
        verify(changes).announce(SALE);
    }

    @Test
    void givenASliceWithoutTheUnitsItsPartOfAReductionTakes_thenATransferBringsThem_andItIsAskedAgain() {
        openSale();
        recordedInTheDatabase(-4, 10);
        // 10 units were 4, 3, 3; 6 are 2, 2, 2: parts -2, -1, -1. Slice 2 has none available.
        applies(S0, -2, new StockLedger(2, 0, 0));
        applies(S1, -1, new StockLedger(2, 0, 0));
        when(sliceAdjustments.adjust(S2, SKU, -1, 41)).thenReturn(new LedgerAdjustment.Refused(0),
                new LedgerAdjustment.Applied(new StockLedger(2, 0, 2)));
        when(sliceStock.available(S0, SKU)).thenReturn(OptionalLong.of(2));
        when(sliceStock.available(S1, SKU)).thenReturn(OptionalLong.of(1));
        when(transfers.transfer(SALE, SKU, 0, 2, 1)).thenReturn(
                StockTransfer.requested(9, SALE, SKU, 0, 2, 1, NOW).taken(1).done());

        StockAdjustmentResult result = service().adjust(SALE, SKU, -4, REASON, OPERATOR);

        InOrder order = inOrder(adjustments, sliceAdjustments, transfers);
        order.verify(adjustments).record(SALE, SKU, -4, OPERATOR, REASON, NOW);
        order.verify(sliceAdjustments).adjust(S2, SKU, -1, 41);
        order.verify(transfers).transfer(SALE, SKU, 0, 2, 1);
        order.verify(sliceAdjustments).adjust(S2, SKU, -1, 41);
        assertThat(result).isInstanceOfSatisfying(StockAdjustmentResult.Adjusted.class, adjusted -> {
            assertThat(adjusted.hotStore()).isEqualTo(new LedgerAdjustment.Applied(new StockLedger(6, 0, 2)));
            assertThat(adjusted.reconciliation()).isEmpty();
        });
        verifyNoInteractions(sliceStore);
    }

    @Test
    void givenASliceThatRefusesItsPart_andNoOtherHasUnitsToGive_thenThatSliceIsReconciledFromTheDatabase() {
        openSale();
        recordedInTheDatabase(-3, 10);
        // 7 units are 3, 2, 2: parts -1, -1, -1. Slice 1's units are all held by a buyer's reservation in flight.
        applies(S0, -1, new StockLedger(3, 0, 0));
        when(sliceAdjustments.adjust(S1, SKU, -1, 41)).thenReturn(new LedgerAdjustment.Refused(0));
        applies(S2, -1, new StockLedger(2, 0, 0));
        when(sliceStock.available(S0, SKU)).thenReturn(OptionalLong.of(0));
        when(sliceStock.available(S2, SKU)).thenReturn(OptionalLong.empty());
        when(transferRows.findByActivity(SALE)).thenReturn(List.of());
        when(sliceStore.snapshot(S1)).thenReturn(hot(new LedgerFigures(3, 0, 2, 1), Map.of(), List.of(), "v1"));
        when(recordedSlices.recordedSlice(eq(S1), eq(SKU), any(), any())).thenReturn(recorded(7, 2, Map.of(),
                List.of(new RecordedAdjustment(41, -3, NOW))));
        when(sliceStore.repair(eq(S1), any())).thenReturn(LedgerRepairResult.REPAIRED);

        StockAdjustmentResult result = service().adjust(SALE, SKU, -3, REASON, OPERATOR);

        assertThat(result).isInstanceOfSatisfying(StockAdjustmentResult.Adjusted.class, adjusted -> {
            assertThat(adjusted.hotStore()).isEqualTo(new LedgerAdjustment.Refused(0));
            assertThat(adjusted.reconciliation()).hasValueSatisfying(report ->
                    assertThat(report.detail()).contains("slice 1 of 3"));
        });
        ArgumentCaptor<LedgerRepair> repair = ArgumentCaptor.forClass(LedgerRepair.class);
        verify(sliceStore).repair(eq(S1), repair.capture());
        assertThat(repair.getValue().figures().total()).as("slice 1's share of 7").isEqualTo(2);
        assertThat(repair.getValue().adjustmentsApplied()).containsExactly(41L);
        verify(sliceStore, never()).snapshot(S0);
        verifyNoInteractions(transfers);
    }
}
