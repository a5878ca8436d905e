package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.order.port.out.PendingRestore;
import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.reconciliation.model.SkuNotFoundException;
import io.flashsale.application.reconciliation.port.out.HoldingsSlice;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.HotStoreSnapshot;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.sale.model.ActivityArchivedException;
import io.flashsale.application.sale.model.ActivityNotReadyException;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.Activity;
import io.flashsale.domain.activity.ActivityItem;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.order.Order;
import io.flashsale.domain.reconciliation.HoldingMismatch;
import io.flashsale.domain.reconciliation.HotReservation;
import io.flashsale.domain.reconciliation.HotSkuSnapshot;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reconciliation.SkuRebuild;
import io.flashsale.domain.reservation.PurchaseLimit;
import io.flashsale.domain.reservation.RequestId;
import io.flashsale.domain.reservation.Reservation;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationLine;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.util.ArrayList;
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
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SETTINGS;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.STALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.held;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.hot;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.inThreeSlices;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.order;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.rebuildable;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.rebuilding;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.reconciling;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.reserved;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.sale;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyCollection;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.argThat;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class ReconcileServiceTest {

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

    private ReconcileService service() {
        return new ReconcileService(activities,
                reconciling(reservationMoves, hotStore, recordedStock, recordedOrders, transitions, reports, metrics),
                rebuilding(hotStoreRebuild, settlement, recordedStock, recordedOrders, metrics), CLOCK, SETTINGS);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    private ReconciliationReport onlyReport(ActivityReconciliation reconciliation) {
        assertThat(reconciliation.reports()).hasSize(1);
        return reconciliation.reports().getFirst();
    }

    private LedgerRepair repairWritten() {
        ArgumentCaptor<LedgerRepair> repair = ArgumentCaptor.forClass(LedgerRepair.class);
        verify(hotStore).repair(eq(SALE), repair.capture());
        return repair.getValue();
    }

    @Test
    void givenASaleInSlicesAndAStoreWithoutSlices_whenReconciled_thenRefusedBeforeTheHotStoreIsReadOrRebuilt() {
        when(activities.findById(SALE)).thenReturn(Optional.of(inThreeSlices(OPEN_SALE)));
        lenient().when(activities.archivedAt(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service().reconcile(SALE)).isInstanceOfSatisfying(SaleInSlicesException.class,
                refused -> assertThat(refused.operation()).isEqualTo("reconciliation"));
        assertThatThrownBy(() -> service().reconcile(SALE, SKU)).isInstanceOf(SaleInSlicesException.class);

        verifyNoInteractions(hotStore, hotStoreRebuild, recordedStock, reports);
    }

    // ---- classifications and actions ----

    @Test
    void givenStoresInSync_thenNoneNothingWrittenNothingKeptAndTheGaugeReadsZero() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 1, 2, 7), Map.of(ANN, 2L, BOB, 1L),
                List.of(reserved(R1, BOB, 1, FRESH)), "fp"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.NONE);
        assertThat(report.action()).isEqualTo(ReconciliationAction.NONE);
        assertThat(report.after()).isEqualTo(report.expected());
        verify(hotStore, never()).repair(any(), any());
        // The pass asks which SKUs wait for an operator (ADR 85), and keeps nothing.
        verify(reports).awaitingReview(SALE);
        verifyNoMoreInteractions(reports);
        assertThat(metrics.reported).extracting(ReconciliationReport::driftUnits).containsExactly(0L);
        assertThat(metrics.repaired).isEmpty();
    }

    @Test
    void givenRedisShowsMoreAvailableThanMySqlAllows_thenRedisAheadRepairedFromMySqlKeptCountedAndLogged() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 1, 9), Map.of(ANN, 1L), List.of(), "10|0|1"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 3, Map.of(ANN, 1L, BOB, 2L)));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.drift()).isEqualTo(new LedgerFigures(0, 0, -2, 2));
        assertThat(report.holdingMismatches()).containsExactly(new HoldingMismatch(BOB, 2, 0));
        assertThat(report.after()).isEqualTo(new LedgerFigures(10, 0, 3, 7));
        assertThat(repairWritten()).isEqualTo(new LedgerRepair(SKU, new LedgerFigures(10, 0, 3, 7),
                Map.of(BOB, 2L), Set.of(), "10|0|1", 2, 2));
        verify(reports).save(report);
        assertThat(metrics.repaired).containsExactly(report);
        assertThat(metrics.reported).extracting(ReconciliationReport::driftUnits).containsExactly(2L);
    }

    @Test
    void givenAFailedReservationStillHoldingUnits_thenRedisBehindRepairedAndItsUnitsReleased() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 2, 0, 8), Map.of(BOB, 2L),
                List.of(held(R1, BOB, ReservationStatus.FAILED, 2)), "10|2|0"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any())).thenReturn(recorded(10, 0, Map.of()));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_BEHIND);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.released()).containsExactly(R1);
        assertThat(repairWritten().figures()).isEqualTo(new LedgerFigures(10, 0, 0, 10));
        assertThat(report.detail()).contains("REDIS_BEHIND/REPAIRED").contains("released [" + R1 + "]");
        verify(hotStore).settled(SALE, Map.of(R1, ReservationStatus.FAILED));
    }

    /** A look without holdings (ADR 43): only their sum is compared, and they are read only when it disagrees. */
    private static Optional<HotStoreSnapshot> lookWithoutHoldings(LedgerFigures figures, long heldUnits,
                                                                  List<HotReservation> reservations) {
        return Optional.of(new HotStoreSnapshot(SALE, Map.of(SKU, new HotSkuSnapshot(SKU, figures, Map.of(),
                reservations, Set.of(), "v1", heldUnits, false))));
    }

    @Test
    void givenALookWithoutHoldingsWhoseSumAgrees_thenNoHoldingIsReadAndNothingRepaired() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(lookWithoutHoldings(new LedgerFigures(10, 1, 2, 7), 3,
                List.of(reserved(R1, BOB, 1, FRESH))));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.NONE);
        verify(hotStore, never()).withHoldings(any(), any());
        verify(hotStore, never()).repair(any(), any());
        // The database is asked for the sum of purchases and no buyer's: a steady pass costs nothing per buyer.
        verify(recordedStock).recordedSku(SALE, SKU, List.of(R1), PurchaseScope.SUM_ONLY);
        verify(recordedStock, never()).recordedSku(any(), any(), any(), eq(PurchaseScope.EVERY));
    }

    @Test
    void givenALookWithoutHoldingsWhoseSumIsShort_thenTheHoldingsAreReadAndTheBuyerCountedShortRepaired() {
        openSale();
        Optional<HotStoreSnapshot> look = lookWithoutHoldings(new LedgerFigures(10, 0, 3, 7), 1, List.of());
        when(hotStore.snapshot(SALE)).thenReturn(look);
        HotSkuSnapshot light = look.orElseThrow().sku(SKU).orElseThrow();
        when(hotStore.withHoldings(eq(SALE), any())).thenReturn(light.withHoldings(Map.of(ANN, 1L), "v1"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 3, Map.of(ANN, 1L, BOB, 2L)));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.holdingMismatches()).containsExactly(new HoldingMismatch(BOB, 2, 0));
        assertThat(repairWritten()).isEqualTo(new LedgerRepair(SKU, new LedgerFigures(10, 0, 3, 7),
                Map.of(BOB, 2L), Set.of(), "v1", 2, 2));
        verify(hotStore, times(2)).withHoldings(eq(SALE), any());
        // Every buyer's purchases only once the sum disagreed and every holding was read.
        verify(recordedStock).recordedSku(SALE, SKU, List.of(), PurchaseScope.SUM_ONLY);
        verify(recordedStock, times(2)).recordedSku(SALE, SKU, List.of(), PurchaseScope.EVERY);
    }

    @Test
    void givenASumThatAgreesWhileOneBuyerHoldsTooManyAndAnotherTooFew_whenTheAuditReachesOne_thenBothAreRepaired() {
        openSale();
        Optional<HotStoreSnapshot> look = lookWithoutHoldings(new LedgerFigures(10, 0, 3, 7), 3, List.of());
        when(hotStore.snapshot(SALE)).thenReturn(look);
        HotSkuSnapshot light = look.orElseThrow().sku(SKU).orElseThrow();
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 3, Map.of(ANN, 2L, BOB, 1L)));
        when(hotStore.auditHoldings(eq(SALE), any(), eq(ReconciliationSettings.DEFAULT_AUDIT_PAGES)))
                .thenReturn(Optional.of(new HoldingsSlice(Map.of(ANN, 3L), true, false)));
        when(hotStore.withHoldings(eq(SALE), any())).thenReturn(light.withHoldings(Map.of(ANN, 3L), "v1"));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.holdingMismatches()).containsExactly(new HoldingMismatch(ANN, 2, 3),
                new HoldingMismatch(BOB, 1, 0));
        assertThat(repairWritten()).isEqualTo(new LedgerRepair(SKU, new LedgerFigures(10, 0, 3, 7),
                Map.of(ANN, 2L, BOB, 1L), Set.of(), "v1", 2, 2));
        verify(hotStore, times(1)).auditHoldings(eq(SALE), any(), eq(ReconciliationSettings.DEFAULT_AUDIT_PAGES));
        verify(hotStore, times(2)).withHoldings(eq(SALE), any());
        verify(recordedStock).recordedSku(SALE, SKU, List.of(), PurchaseScope.of(Set.of(ANN)));
    }

    @Test
    void givenAnAuditedSliceReadWhileTheSkuMoved_thenItIsNotJudgedAndNoHoldingIsRead() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(lookWithoutHoldings(new LedgerFigures(10, 0, 3, 7), 3, List.of()));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 3, Map.of(ANN, 2L, BOB, 1L)));
        when(hotStore.auditHoldings(eq(SALE), any(), eq(ReconciliationSettings.DEFAULT_AUDIT_PAGES)))
                .thenReturn(Optional.of(new HoldingsSlice(Map.of(ANN, 3L), false, false)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.NONE);
        verify(hotStore, never()).withHoldings(any(), any());
        verify(hotStore, never()).repair(any(), any());
    }

    @Test
    void givenAReservationWhoseEventNeverReachedKafka_thenUnknownReservationReDrivenAndNotRepaired() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 1, 0, 9), Map.of(ANN, 1L),
                List.of(reserved(R1, ANN, 1, STALE)), "fp"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any()))
                .thenReturn(recorded(10, 0, Map.of()));
        when(hotStore.redrive(R1)).thenReturn(true);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.UNKNOWN_RESERVATION);
        assertThat(report.action()).isEqualTo(ReconciliationAction.REDRIVEN);
        assertThat(report.redriven()).containsExactly(R1);
        verify(hotStore, never()).repair(any(), any());
        verify(reports).save(report);
    }

    @Test
    void givenAnOrderWhoseConfirmationNeverReachedRedis_thenMissingReservationConfirmedAndLookedAtAgain() {
        openSale();
        when(hotStore.snapshot(SALE))
                .thenReturn(hot(new LedgerFigures(10, 1, 0, 9), Map.of(ANN, 1L), List.of(reserved(R1, ANN, 1, STALE)), "a"))
                .thenReturn(hot(new LedgerFigures(10, 0, 1, 9), Map.of(ANN, 1L),
                        List.of(held(R1, ANN, ReservationStatus.ORDERED, 1)), "b"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any()))
                .thenReturn(recorded(10, 1, Map.of(ANN, 1L), order(R1, ReservationStatus.ORDERED, true, STALE)));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 1, Map.of(ANN, 1L)));
        when(reservationMoves.confirm(R1)).thenReturn(true);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).isEqualTo(ReconciliationClassification.MISSING_RESERVATION);
        assertThat(report.action()).isEqualTo(ReconciliationAction.CONFIRMED);
        assertThat(report.confirmed()).containsExactly(R1);
        assertThat(report.after()).isEqualTo(new LedgerFigures(10, 0, 1, 9));
        verify(hotStore, never()).repair(any(), any());
    }

    @Test
    void givenOverdueSettlementsOfEveryKind_thenTheHotStoreIsToldWhatTheOrderPipelineWouldHaveToldIt() {
        openSale();
        var paid = ReservationId.of(SALE, "paid");
        var failed = ReservationId.of(SALE, "failed");
        var cancelled = ReservationId.of(SALE, "cancelled");
        var expired = ReservationId.of(SALE, "expired");
        List<HotReservation> stuck = List.of(reserved(paid, ANN, 1, STALE),
                reserved(failed, BOB, 1, STALE), reserved(cancelled, BOB, 1, STALE), reserved(expired, ANN, 1, STALE));
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 4, 0, 6), Map.of(ANN, 2L, BOB, 2L), stuck, "a"))
                .thenReturn(hot(new LedgerFigures(10, 0, 1, 9), Map.of(ANN, 1L), List.of(), "b"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(paid, failed, cancelled, expired)), any()))
                .thenReturn(Optional.of(
                new RecordedSku(SKU, 10, 1, Map.of(ANN, 1L), Map.of(
                        paid, order(paid, ReservationStatus.PAID, true, STALE),
                        failed, order(failed, ReservationStatus.FAILED, false, STALE),
                        cancelled, order(cancelled, ReservationStatus.CANCELLED, false, STALE),
                        expired, order(expired, ReservationStatus.EXPIRED, true, STALE)), Set.of(expired), List.of())));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 1, Map.of(ANN, 1L)));
        when(reservationMoves.confirm(any())).thenReturn(true);
        when(reservationMoves.markPaid(paid)).thenReturn(true);
        when(reservationMoves.fail(failed)).thenReturn(true);
        when(reservationMoves.release(cancelled)).thenReturn(true);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        verify(reservationMoves).confirm(paid);
        verify(reservationMoves).markPaid(paid);
        verify(reservationMoves).fail(failed);
        verify(reservationMoves).release(cancelled);
        verify(reservationMoves).confirm(expired);
        assertThat(report.confirmed()).containsExactlyInAnyOrder(paid, failed, cancelled, expired);
        assertThat(report.action()).isEqualTo(ReconciliationAction.CONFIRMED);
    }

    @Test
    void givenABuyersCancelThatWonInRedisLongAgoAmongManyReservationsInFlight_thenTheDatabaseCancelsThatOrderOnce() {
        openSale();
        var cancelled = ReservationId.of(SALE, "cancelled");
        List<HotReservation> inFlight = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            inFlight.add(reserved(ReservationId.of(SALE, "r" + i), BOB, 1, FRESH).foundInPipeline());
        }
        inFlight.add(new HotReservation(cancelled, ANN, ReservationStatus.CANCELLED, 1, STALE, STALE, false));
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10_000, 5_000, 0, 5_000),
                        Map.of(BOB, 5_000L), inFlight, "a"))
                .thenReturn(hot(new LedgerFigures(10_000, 5_000, 0, 5_000), Map.of(BOB, 5_000L),
                        inFlight.subList(0, 5_000), "b"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), anyList(), any())).thenReturn(Optional.of(new RecordedSku(
                SKU, 10_000, 1, Map.of(ANN, 1L), Map.of(cancelled, order(cancelled, ReservationStatus.ORDERED, true,
                STALE)), Set.of(), List.of())))
                .thenReturn(recorded(10_000, 0, Map.of()));
        when(transitions.cancelReleased(cancelled, STALE)).thenReturn(true);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        verify(transitions, times(1)).cancelReleased(cancelled, STALE);
        verify(transitions, times(1)).cancelReleased(any(), any());
        assertThat(report.confirmed()).containsExactly(cancelled);
    }

    @Test
    void givenALostReservationOfTwoSkus_whenTheActivityIsReconciled_thenItIsReDrivenOnceAndBothSkusReportIt() {
        SkuId other = new SkuId("b");
        Activity twoSkus = new Activity(SALE, "Flash", NOW.minusSeconds(60), NOW.plusSeconds(60),
                new PurchaseLimit(2), Duration.ofMinutes(15),
                List.of(new ActivityItem(SKU, 10, null, 1),
                        new ActivityItem(other, 5, null, 1)));
        when(activities.findById(SALE)).thenReturn(Optional.of(twoSkus));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
        var lostInBoth = List.of(reserved(R1, ANN, 1, STALE));
        when(hotStore.snapshot(SALE)).thenReturn(Optional.of(new HotStoreSnapshot(SALE,
                Map.of(SKU, new HotSkuSnapshot(SKU, new LedgerFigures(10, 1, 0, 9),
                                Map.of(ANN, 1L), lostInBoth, Set.of(), "a"),
                        other, new HotSkuSnapshot(other, new LedgerFigures(5, 1, 0, 4),
                                Map.of(ANN, 1L), lostInBoth, Set.of(), "b")))));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any()))
                .thenReturn(recorded(10, 0, Map.of()));
        when(recordedStock.recordedSku(eq(SALE), eq(other), eq(List.of(R1)), any())).thenReturn(Optional.of(
                new RecordedSku(other, 5, 0, Map.of(), Map.of(), Set.of(), List.of())));
        when(hotStore.redrive(R1)).thenReturn(true);

        ActivityReconciliation reconciliation = service().reconcile(SALE);

        verify(hotStore, times(1)).redrive(R1);
        assertThat(reconciliation.reports()).extracting(ReconciliationReport::classification)
                .containsExactly(ReconciliationClassification.UNKNOWN_RESERVATION,
                        ReconciliationClassification.UNKNOWN_RESERVATION);
        assertThat(reconciliation.reports()).extracting(ReconciliationReport::action)
                .containsExactly(ReconciliationAction.REDRIVEN, ReconciliationAction.NONE);
    }

    @Test
    void givenAReservationAcceptedBetweenTheSnapshotAndTheRepair_thenTheRepairIsRetriedFromAFreshSnapshot() {
        openSale();
        // Each attempt looks twice (drift must still be there on a fresh look) and repairs from the second look.
        when(hotStore.snapshot(SALE))
                .thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "first"))
                .thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "first"))
                .thenReturn(hot(new LedgerFigures(10, 1, 0, 9), Map.of(BOB, 1L), List.of(reserved(R1, BOB, 1, FRESH)),
                        "second"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), anyCollection(), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.RETRY, LedgerRepairResult.REPAIRED);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        ArgumentCaptor<LedgerRepair> repairs = ArgumentCaptor.forClass(LedgerRepair.class);
        verify(hotStore, times(2)).repair(eq(SALE), repairs.capture());
        assertThat(repairs.getAllValues()).extracting(LedgerRepair::version).containsExactly("first", "second");
        assertThat(repairs.getAllValues().get(1).figures()).isEqualTo(new LedgerFigures(10, 1, 2, 7));
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.actual()).as("what the successful repair was decided on")
                .isEqualTo(new LedgerFigures(10, 1, 0, 9));
    }

    @Test
    void givenDriftThatIsGoneOnASecondLook_thenNothingIsRepaired() {
        // An order's restore landed between the reads of the two stores: the first look sees drift, the second none.
        openSale();
        when(hotStore.snapshot(SALE))
                .thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "stale"))
                .thenReturn(hot(new LedgerFigures(10, 0, 2, 8), Map.of(ANN, 2L), List.of(), "fresh"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        verify(hotStore, never()).repair(eq(SALE), any());
        assertThat(report.classification()).isEqualTo(ReconciliationClassification.NONE);
        assertThat(report.action()).isEqualTo(ReconciliationAction.NONE);
        assertThat(metrics.repaired).isEmpty();
    }

    @Test
    void givenASkuThatKeepsMovingUnderEveryRepair_thenDeferredAfterTheAttemptsAndKept() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "fp"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.RETRY);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        verify(hotStore, times(3)).repair(eq(SALE), any());
        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(report.action()).isEqualTo(ReconciliationAction.DEFERRED);
        assertThat(report.after()).isEqualTo(report.actual());
        assertThat(report.detail()).contains("kept moving");
        verify(reports).save(report);
        assertThat(metrics.repaired).isEmpty();
    }

    @Test
    void givenASkuThatMovesDuringEveryPagedRead_thenNothingIsJudgedOrRepairedAndTheReportSaysSo() {
        openSale();
        // Would look like REDIS_AHEAD drift, but the pages were read while the SKU moved: no finding can be trusted.
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(),
                HotSkuSnapshot.MOVING));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        verify(hotStore, times(SETTINGS.attempts())).snapshot(SALE);
        verify(hotStore, never()).repair(any(), any());
        assertThat(report.classification()).isEqualTo(ReconciliationClassification.NONE);
        assertThat(report.action()).isEqualTo(ReconciliationAction.DEFERRED);
        assertThat(report.detail()).contains("moved during every read");
        verify(reports).save(report);
    }

    /**
     * A look read while the SKU moved is never judged, so its sum of holdings, which disagrees as easily as its other
     * parts, must not send it to read every holding and every buyer's purchases: in a busy sale that was every look of
     * the hot SKU, and a pass cost in proportion to its buyers (ADR 63).
     */
    @Test
    void givenALookReadWhileTheSkuMovedWhoseSumDisagrees_thenNoHoldingAndNoBuyersPurchaseIsRead() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(Optional.of(new HotStoreSnapshot(SALE, Map.of(SKU,
                new HotSkuSnapshot(SKU, new LedgerFigures(10, 0, 3, 7), Map.of(), List.of(), Set.of(),
                HotSkuSnapshot.MOVING, 1, false)))));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 3, Map.of(ANN, 1L, BOB, 2L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.action()).isEqualTo(ReconciliationAction.DEFERRED);
        assertThat(report.detail()).contains("moved during every read");
        verify(hotStore, never()).withHoldings(any(), any());
        verify(hotStore, never()).auditHoldings(any(), any(), anyInt());
        verify(recordedStock, never()).recordedSku(any(), any(), any(), eq(PurchaseScope.EVERY));
    }

    /**
     * A busy sale's looks all move, and nearly all of its reservations are young and in the pipeline: a moving look
     * asks the database only about those it could catch up (ADR 118). A steady look asks about every RESERVED one
     * ({@link #givenStoresInSync_thenNoneNothingWrittenNothingKeptAndTheGaugeReadsZero}).
     */
    @Test
    void givenAMovingLook_thenTheDatabaseIsAskedOnlyAboutReservationsOutOfThePipelineOrPastTheGrace() {
        openSale();
        ReservationId young = ReservationId.of(SALE, "young");
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 2, 0, 8), Map.of(ANN, 1L, BOB, 1L),
                List.of(reserved(young, BOB, 1, FRESH), reserved(R1, ANN, 1, STALE)), HotSkuSnapshot.MOVING));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of(R1)), any()))
                .thenReturn(recorded(10, 0, Map.of()));
        when(hotStore.redrive(R1)).thenReturn(true);

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.redriven()).containsExactly(R1);
        verify(recordedStock, never()).recordedSku(any(), any(), argThat(asked -> asked.contains(young)), any());
        verify(hotStore, never()).repair(any(), any());
    }

    /**
     * A look that moved while reservations are on their way is a busy sale's: a look at once would move too, so the
     * pass leaves the SKU to a later one after a single look (ADR 118), where a SKU that moved with nothing on its way
     * is looked at again up to the attempts ({@link #givenASkuThatMovesDuringEveryPagedRead_thenNothingIsJudgedOrRepairedAndTheReportSaysSo}).
     */
    @Test
    void givenALookThatMovedWithReservationsOnTheirWay_thenLookedAtOnceAndLeftToALaterPass() {
        openSale();
        // The young reservation's order has landed: MySQL counts it sold, the look (which does not ask) in flight.
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 1, 0, 9), Map.of(BOB, 1L),
                List.of(reserved(R1, BOB, 1, FRESH)), HotSkuSnapshot.MOVING));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 1, Map.of(BOB, 1L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        verify(hotStore, times(1)).snapshot(SALE);
        verify(hotStore, never()).repair(any(), any());
        assertThat(report.action()).isEqualTo(ReconciliationAction.DEFERRED);
        assertThat(report.detail()).contains("moved during every read");
    }

    @Test
    void givenASkuThatMovedDuringThePagedReadButShowsNoDifference_thenReportedClean() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 2, 8), Map.of(ANN, 2L), List.of(),
                HotSkuSnapshot.MOVING));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 2, Map.of(ANN, 2L)));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.isClean()).as("%s", report).isTrue();
        verify(hotStore, never()).repair(any(), any());
    }

    @Test
    void givenAnOrderedReservationThatOwesARestore_thenTheHotStoreIsAskedWithItsOrderAndItCountsAsOnItsWay() {
        openSale();
        // Sold 2 in Redis for Ann's order, which MySQL has closed and given back already: the restore is on its way.
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 2, 8), Map.of(ANN, 2L), List.of(),
                "v1"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(Optional.of(new RecordedSku(SKU, 10, 0,
                Map.of(), Map.of(), Set.of(R1), List.of())));
        // No record of an ordered reservation in the hot store (ADR 71): it is asked with the order's lines.
        Order closed = Order.placed(new Reservation(R1, SALE, ANN, new RequestId("r1"),
                List.of(new ReservationLine(SKU, 2)), ReservationStatus.RESERVED, STALE), STALE)
                .closed(ReservationStatus.CANCELLED, FRESH);
        when(recordedOrders.orders(List.of(R1))).thenReturn(List.of(closed));
        when(hotStore.restoreStatuses(SALE, List.of(PendingRestore.of(closed))))
                .thenReturn(Map.of(R1, ReservationStatus.ORDERED));

        ReconciliationReport report = onlyReport(service().reconcile(SALE));

        assertThat(report.classification()).as("the restore is on its way, not drift")
                .isEqualTo(ReconciliationClassification.NONE);
        verify(hotStore, never()).repair(any(), any());
    }

    // ---- rebuilds ----

    @Test
    void givenAnOpenSaleTheHotStoreLost_whenReconciled_thenRebuiltFromMySqlFirstAndThenReconciled() {
        openSale();
        when(hotStore.snapshot(SALE)).thenReturn(Optional.empty())
                .thenReturn(hot(new LedgerFigures(10, 0, 3, 7), Map.of(ANN, 2L, BOB, 1L), List.of(), "fp"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 3, Map.of(ANN, 2L, BOB, 1L)));
        rebuildable(hotStoreRebuild, recordedOrders, OPEN_SALE);

        ActivityReconciliation reconciliation = service().reconcile(SALE);

        assertThat(reconciliation.hotStore()).isEqualTo(ActivityReconciliation.HotStoreState.REBUILT);
        verify(hotStoreRebuild).finishRebuild(OPEN_SALE, "r1",
                List.of(new SkuRebuild(SKU, 10, 3, Map.of(ANN, 2L, BOB, 1L), Set.of())));
        assertThat(onlyReport(reconciliation).classification()).isEqualTo(ReconciliationClassification.NONE);
        assertThat(metrics.rebuilt).containsExactly(SALE);
    }

    @Test
    void givenASaleNotOpenThatTheHotStoreDoesNotHold_whenReconciled_thenNothingIsLoadedOrReported() {
        Activity later = sale(SALE, NOW.plusSeconds(600), NOW.plusSeconds(1200));
        when(activities.findById(SALE)).thenReturn(Optional.of(later));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
        when(hotStore.snapshot(SALE)).thenReturn(Optional.empty());

        ActivityReconciliation reconciliation = service().reconcile(SALE);

        assertThat(reconciliation).isEqualTo(new ActivityReconciliation(SALE,
                ActivityReconciliation.HotStoreState.NOT_LOADED, List.of()));
        verify(hotStoreRebuild, never()).beginRebuild(any(), any());
        assertThatThrownBy(() -> service().reconcile(SALE, SKU)).isInstanceOf(ActivityNotReadyException.class);
    }

    @Test
    void givenAnArchivedSaleOrAnUnknownSku_thenRefused() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty(), Optional.of(NOW));

        assertThatThrownBy(() -> service().reconcile(SALE, new SkuId("zz"))).isInstanceOf(SkuNotFoundException.class);
        assertThatThrownBy(() -> service().reconcile(SALE)).isInstanceOf(ActivityArchivedException.class);
        verifyNoInteractions(hotStore);
    }
}
