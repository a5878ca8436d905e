package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotFoundException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.RecordedAdjustment;
import io.flashsale.domain.shared.InvalidValueException;
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
import java.util.Set;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.ANN;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.BOB;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.FRESH;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.R1;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.hot;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.inThreeSlices;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.reserved;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class StockAdjustmentServiceTest {

    private static final String REASON = "supplier delivered five more";
    private static final String OPERATOR = "admin-7";

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

    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();

    private StockAdjustmentService service() {
        return new StockAdjustmentService(new StockAdjustmentService.Ports(activities, activities,
                adjustments, reservationMoves, hotStore, hotStoreAdjustments,
                RelayedEventsPort.NONE, recordedStock, recordedOrders, transitions, reports, metrics, changes), CLOCK,
                ReconciliationSettings.DEFAULTS);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    private static StockAdjustment adjustment(long id, long delta, long before, long sold) {
        return new StockAdjustment(id, SALE, SKU, delta, before, before + delta, sold, OPERATOR, REASON, NOW);
    }

    @Test
    void givenASaleInSlicesAndStoresWithoutSlices_whenAnAdjustmentIsAsked_thenRefusedBeforeAnythingIsRecorded() {
        when(activities.findById(SALE)).thenReturn(Optional.of(inThreeSlices(OPEN_SALE)));
        lenient().when(activities.archivedAt(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service().adjust(SALE, SKU, 5, REASON, OPERATOR))
                .isInstanceOfSatisfying(SaleInSlicesException.class,
                        refused -> assertThat(refused.operation()).isEqualTo("a stock adjustment"));
        verifyNoInteractions(adjustments, hotStoreAdjustments, hotStore);
    }

    @Test
    void givenAnIncrease_thenMySqlFirstThenRedisThenTheSkuIsReconciledInThatOrder() {
        openSale();
        StockAdjustment recorded = adjustment(41, 5, 10, 2);
        when(adjustments.record(SALE, SKU, 5, OPERATOR, REASON, NOW)).thenReturn(new AdjustmentRecording.Recorded(recorded));
        when(hotStoreAdjustments.adjust(SALE, SKU, 5, 41)).thenReturn(new LedgerAdjustment.Applied(new StockLedger(15,
             0, 2)));
        when(hotStore.snapshot(SALE)).thenReturn(hot(SALE, new LedgerFigures(15, 0, 2, 13), Map.of(ANN, 2L), List.of(),
                Set.of(41L), "f"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any())).thenReturn(recorded(15, 2, Map.of(ANN, 2L),
                List.of(new RecordedAdjustment(41, 5, NOW))));

        StockAdjustmentResult result = service().adjust(SALE, SKU, 5, REASON, OPERATOR);

        InOrder order = inOrder(adjustments, hotStore, recordedStock, hotStoreAdjustments);
        order.verify(adjustments).record(SALE, SKU, 5, OPERATOR, REASON, NOW);
        order.verify(hotStoreAdjustments).adjust(SALE, SKU, 5, 41);
        order.verify(hotStore).snapshot(SALE);
        order.verify(recordedStock).recordedSku(eq(SALE), eq(SKU), eq(List.of()), any());
        assertThat(result).isInstanceOfSatisfying(StockAdjustmentResult.Adjusted.class, adjusted -> {
            assertThat(adjusted.adjustment()).isEqualTo(recorded);
            assertThat(adjusted.report().classification()).isEqualTo(ReconciliationClassification.NONE);
        });
        verify(hotStore, never()).repair(any(), any());
    }

    @Test
    void givenMySqlRefusesBelowSold_thenRedisIsNeverTouchedAndTheRefusalSaysWhy() {
        openSale();
        when(adjustments.record(SALE, SKU, -9, OPERATOR, REASON, NOW)).thenReturn(new AdjustmentRecording.BelowSold(10, 3));

        StockAdjustmentResult result = service().adjust(SALE, SKU, -9, REASON, OPERATOR);

        assertThat(result).isEqualTo(new StockAdjustmentResult.BelowSold(10, 3));
        verifyNoInteractions(hotStore, recordedStock, reports, changes);
    }

    @Test
    void givenARecordedAdjustment_whenTheHotStoreFails_thenTheSaleIsStillAnnouncedAsChanged() {
        openSale();
        when(adjustments.record(SALE, SKU, 2, OPERATOR, REASON, NOW))
                .thenReturn(new AdjustmentRecording.Recorded(adjustment(44, 2, 10, 0)));
        when(hotStoreAdjustments.adjust(SALE, SKU, 2, 44)).thenThrow(new IllegalStateException("Redis went away"));

        assertThatThrownBy(() -> service().adjust(SALE, SKU, 2, REASON, OPERATOR))
                .isInstanceOf(IllegalStateException.class);

        InOrder order = inOrder(adjustments, changes);
        order.verify(adjustments).record(SALE, SKU, 2, OPERATOR, REASON, NOW);
        order.verify(changes).announce(SALE);
    }

    @Test
    void givenRedisRefusesAReductionItsReservationsInFlightCannotSpare_thenReconciliationRepairsRedisFromMySql() {
        openSale();
        StockAdjustment recorded = adjustment(42, -6, 10, 0);
        when(adjustments.record(SALE, SKU, -6, OPERATOR, REASON, NOW)).thenReturn(new AdjustmentRecording.Recorded(recorded));
        when(hotStoreAdjustments.adjust(SALE, SKU, -6, 42)).thenReturn(new LedgerAdjustment.Refused(5));
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 5, 0, 5), Map.of(BOB, 5L),
                List.of(reserved(R1, BOB, 5, FRESH)), "10|5|0"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any())).thenReturn(recorded(4, 0, Map.of(),
                List.of(new RecordedAdjustment(42, -6, NOW))));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        StockAdjustmentResult result = service().adjust(SALE, SKU, -6, REASON, OPERATOR);

        ArgumentCaptor<LedgerRepair> repair = ArgumentCaptor.forClass(LedgerRepair.class);
        verify(hotStore).repair(eq(SALE), repair.capture());
        assertThat(repair.getValue().figures()).as("nothing available; the total covers what Redis accepted")
                .isEqualTo(new LedgerFigures(5, 5, 0, 0));
        assertThat(repair.getValue().adjustmentsApplied()).containsExactly(42L);
        assertThat(repair.getValue().holdings()).as("Bob's 5 units are right already: nothing to write")
                .isEqualTo(Map.of());
        assertThat(result).isInstanceOfSatisfying(StockAdjustmentResult.Adjusted.class, adjusted -> {
            assertThat(adjusted.hotStore()).isEqualTo(new LedgerAdjustment.Refused(5));
            assertThat(adjusted.report().classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
            assertThat(adjusted.report().action()).isEqualTo(ReconciliationAction.REPAIRED);
            assertThat(adjusted.report().detail()).contains("short by 1");
        });
        assertThat(metrics.repaired).hasSize(1);
    }

    @Test
    void givenASaleTheHotStoreDoesNotHoldYet_thenOnlyMySqlChangesAndNothingIsReconciled() {
        openSale();
        StockAdjustment recorded = adjustment(43, 1, 10, 0);
        when(adjustments.record(SALE, SKU, 1, OPERATOR, REASON, NOW)).thenReturn(new AdjustmentRecording.Recorded(recorded));
        when(hotStoreAdjustments.adjust(SALE, SKU, 1, 43)).thenReturn(new LedgerAdjustment.NotLoaded());

        StockAdjustmentResult result = service().adjust(SALE, SKU, 1, REASON, OPERATOR);

        assertThat(result).isEqualTo(new StockAdjustmentResult.Adjusted(recorded, new LedgerAdjustment.NotLoaded(), null));
        assertThat(((StockAdjustmentResult.Adjusted) result).reconciliation()).isEmpty();
        verify(hotStore, never()).snapshot(any());
        verify(changes).announce(SALE);
    }

    @Test
    void givenAnInvalidRequest_thenRefusedBeforeAnyStoreIsAsked() {
        assertThatThrownBy(() -> service().adjust(SALE, SKU, 0, REASON, OPERATOR)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> service().adjust(SALE, SKU, 1, " ", OPERATOR)).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> service().adjust(SALE, SKU, 1, REASON, "")).isInstanceOf(InvalidValueException.class);
        assertThatThrownBy(() -> service().adjust(SALE, SKU, 1_000_000_001L, REASON, OPERATOR))
                .isInstanceOf(InvalidValueException.class);
        verifyNoInteractions(activities, adjustments, hotStore);
    }

    @Test
    void givenAnUnknownSaleSkuOrAnArchivedSale_thenRefusedAndNothingRecorded() {
        when(activities.findById(SALE)).thenReturn(Optional.empty(), Optional.of(OPEN_SALE), Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.of(NOW));

        assertThatThrownBy(() -> service().adjust(SALE, SKU, 1, REASON, OPERATOR))
                .isInstanceOf(ActivityNotFoundException.class);
        assertThatThrownBy(() -> service().adjust(SALE, new SkuId("zz"), 1, REASON, OPERATOR))
                .isInstanceOf(SkuNotFoundException.class);
        assertThatThrownBy(() -> service().adjust(SALE, SKU, 1, REASON, OPERATOR))
                .isInstanceOf(ActivityArchivedException.class);
        verifyNoInteractions(adjustments, hotStore);
    }

    @Test
    void givenAdjustmentsOnRecord_whenListed_thenTheRepositoryAnswersForAnExistingSaleOnly() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE), Optional.empty());
        when(adjustments.findByActivity(SALE)).thenReturn(List.of(adjustment(1, 5, 10, 0)));

        assertThat(service().list(SALE)).containsExactly(adjustment(1, 5, 10, 0));
        assertThatThrownBy(() -> service().list(SALE)).isInstanceOf(ActivityNotFoundException.class);
    }
}
