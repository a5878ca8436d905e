package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.NoRepairAwaitingApprovalException;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.LedgerRepairResult;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.reconciliation.LedgerFigures;
import io.flashsale.domain.reconciliation.LedgerRepair;
import io.flashsale.domain.reconciliation.ReconciliationAction;
import io.flashsale.domain.reconciliation.ReconciliationClassification;
import io.flashsale.domain.reconciliation.ReconciliationReport;
import io.flashsale.domain.reservation.BuyerId;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.reservation.ReservationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.ArgumentCaptor;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.ANN;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.BOB;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.hot;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.rebuilding;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.reconciling;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

/**
 * ADR 85: drift up to the auto-repair limit is repaired at once; above it the SKU is left as found and reported
 * NEEDS_REVIEW until an operator approves, and an approval repairs what is found then, never what was seen. ADR 99:
 * above the limit, a repair that only restricts what Redis offers, or loosens it within the limit, is applied at once.
 */
@ExtendWith(MockitoExtension.class)
class RepairEscalationTest {

    private static final long LIMIT = 2;
    /** What the database of record holds for the SKU: 3 of 10 sold, to ann 1 and bob 2. */
    private static final Map<BuyerId, Long> PURCHASES = Map.of(ANN, 1L, BOB, 2L);

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
                rebuilding(hotStoreRebuild, settlement, recordedStock, recordedOrders, metrics), CLOCK, settings());
    }

    private RepairApprovalService approvals() {
        return new RepairApprovalService(activities,
                reconciling(reservationMoves, hotStore, recordedStock, recordedOrders, transitions, reports, metrics),
                            CLOCK,
                settings());
    }

    private static ReconciliationSettings settings() {
        return new ReconciliationSettings(Duration.ofSeconds(60), 3, Duration.ofSeconds(60),
                ReconciliationSettings.DEFAULT_REDRIVE_WINDOW, ReconciliationSettings.DEFAULT_AUDIT_PAGES, LIMIT);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    private void databaseSoldThree() {
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any())).thenReturn(recorded(10, 3, PURCHASES));
    }

    /** Redis counts 3 units more sold than the database (6 of 10), each buyer 1 or 2 units more: a repair loosens. */
    private void redisBehindByThree() {
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 6, 4), Map.of(ANN, 2L, BOB, 4L),
                List.of(), "v1"));
    }

    /** Redis lost every sale (a promoted replica without the last writes): a repair only restricts. */
    private void redisLostTheThreeSold() {
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "v1"));
    }

    /**
     * Redis lost the three sold, and still holds {@code units} for bob's FAILED reservation, which a repair gives back:
     * a repair that restricts by 3 and loosens by {@code units}.
     */
    private void redisLostTheThreeSoldAndHoldsForAFailedReservation(long units) {
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, units, 0, 10 - units), Map.of(BOB, units),
                List.of(ReconciliationFixtures.held(new ReservationId("sale.f1"), BOB, ReservationStatus.FAILED,
                units)), "v1"));
    }

    private void underReview() {
        ReconciliationReport open = new ReconciliationReport(SALE, SKU, NOW.minusSeconds(60),
                ReconciliationClassification.REDIS_AHEAD, ReconciliationAction.NEEDS_REVIEW,
                new LedgerFigures(10, 0, 3, 7), new LedgerFigures(10, 0, 0, 10), new LedgerFigures(10, 0, 0, 10),
                List.of(), List.of(), List.of(), List.of(), "REDIS_AHEAD/NEEDS_REVIEW");
        when(reports.awaitingReview(SALE)).thenReturn(List.of(open));
    }

    private LedgerRepair repairWritten() {
        ArgumentCaptor<LedgerRepair> repair = ArgumentCaptor.forClass(LedgerRepair.class);
        verify(hotStore).repair(eq(SALE), repair.capture());
        return repair.getValue();
    }

    @Test
    void givenAResidualOfTheLimit_thenItIsRepairedAtOnceAsBefore() {
        openSale();
        // Redis counts one sale of bob's short: 2 units apart on sold and available, the limit exactly.
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 1, 9), Map.of(ANN, 1L), List.of(), "v1"));
        databaseSoldThree();
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = service().reconcile(SALE, SKU);

        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.driftUnits()).isEqualTo(LIMIT);
        assertThat(repairWritten().figures()).isEqualTo(new LedgerFigures(10, 0, 3, 7));
        verify(reports).save(report);
    }

    @Test
    void givenAResidualAboveTheLimitWhoseRepairLoosens_thenRedisIsLeftAsFoundAndTheSkuReportedNeedsReview() {
        openSale();
        redisBehindByThree();
        databaseSoldThree();

        ReconciliationReport report = service().reconcile(SALE, SKU);

        assertThat(report.action()).isEqualTo(ReconciliationAction.NEEDS_REVIEW);
        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_BEHIND);
        assertThat(report.driftUnits()).isEqualTo(3);
        assertThat(report.after()).isEqualTo(report.actual());
        assertThat(report.detail()).contains("residual of 3 units is above the automatic repair's limit of 2");
        verify(hotStore, never()).repair(any(), any());
        verify(reports).save(report);
        verify(reports, never()).closeReviews(any(), any(), any(), any());
        assertThat(metrics.reported).containsExactly(report);
        assertThat(metrics.repaired).isEmpty();
        assertThat(metrics.repairedAboveLimit).isEmpty();
    }

    @Test
    void givenAResidualAboveTheLimitWhoseRepairOnlyRestricts_thenRepairedAtOnceAndReportedAsAboveTheLimit() {
        openSale();
        redisLostTheThreeSold();
        databaseSoldThree();
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = service().reconcile(SALE, SKU);

        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.classification()).isEqualTo(ReconciliationClassification.REDIS_AHEAD);
        assertThat(report.driftUnits()).isEqualTo(3);
        assertThat(report.detail()).contains("residual of 3 units is above the automatic repair's limit of 2,"
                + " repaired at once: the repair only restricts what the hot store offers (ADR 99)");
        LedgerRepair written = repairWritten();
        assertThat(written.figures()).isEqualTo(new LedgerFigures(10, 0, 3, 7));
        assertThat(written.holdings()).isEqualTo(PURCHASES);
        verify(reports).save(report);
        assertThat(metrics.repaired).containsExactly(report);
        assertThat(metrics.repairedAboveLimit).as("an operator still hears of it").containsExactly(report);
    }

    @Test
    void givenAResidualAboveTheLimitWhoseRepairLoosensWithinTheLimit_thenTheWholeRepairIsAppliedAtOnce() {
        openSale();
        // Redis lost the three sold (restricting) and the repair gives back bob's FAILED 2 units (the limit).
        redisLostTheThreeSoldAndHoldsForAFailedReservation(2);
        databaseSoldThree();
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = service().reconcile(SALE, SKU);

        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.driftUnits()).isEqualTo(3);
        assertThat(report.detail()).contains("loosens what the hot store offers by 2 units at most, within the limit");
        assertThat(repairWritten().figures()).isEqualTo(new LedgerFigures(10, 0, 3, 7));
        assertThat(metrics.repairedAboveLimit).containsExactly(report);
    }

    @Test
    void givenAResidualAboveTheLimitWhoseRepairLoosensAboveTheLimit_thenTheWholeRepairWaitsEvenItsRestrictingPart() {
        openSale();
        // Redis lost the three sold (restricting) and the repair gives back bob's FAILED 3 units (above the limit).
        redisLostTheThreeSoldAndHoldsForAFailedReservation(3);
        databaseSoldThree();

        ReconciliationReport report = service().reconcile(SALE, SKU);

        assertThat(report.action()).isEqualTo(ReconciliationAction.NEEDS_REVIEW);
        verify(hotStore, never()).repair(any(), any());
        assertThat(metrics.repairedAboveLimit).isEmpty();
    }

    @Test
    void givenAnApproval_whenTheResidualGrewSinceTheReview_thenTodaysIsRepairedFromTheDatabaseAndTheOperatorNamed() {
        openSale();
        underReview();
        // The review saw 3 units; two more sold in the database meanwhile: the repair writes 5 sold, not 3.
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "v2"));
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 5, Map.of(ANN, 2L, BOB, 3L)));
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);

        ReconciliationReport report = approvals().approveRepair(SALE, SKU, "alice");

        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.driftUnits()).isEqualTo(5);
        assertThat(report.detail()).contains("repair approved by alice");
        assertThat(repairWritten().figures()).isEqualTo(new LedgerFigures(10, 0, 5, 5));
        verify(reports).save(report);
        verify(reports).closeReviews(SALE, SKU, "alice", NOW);
        assertThat(metrics.repaired).containsExactly(report);
    }

    @Test
    void givenAnApprovalWhoseRepairLosesARace_thenTheSkuIsReadAgainAndNothingIsWrittenTwice() {
        openSale();
        underReview();
        // Another approval rewrote the SKU between this one's look and its write: the write is refused (RETRY) and
        // the next look finds the stores in sync.
        when(hotStore.snapshot(SALE))
                .thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "v2"))
                .thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "v2"))
                .thenReturn(hot(new LedgerFigures(10, 0, 3, 7), PURCHASES, List.of(), "v3"));
        databaseSoldThree();
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.RETRY);

        ReconciliationReport report = approvals().approveRepair(SALE, SKU, "bob-the-operator");

        assertThat(report.action()).isEqualTo(ReconciliationAction.NONE);
        verify(hotStore, times(1)).repair(any(), any());
        assertThat(metrics.repaired).isEmpty();
        // Kept although clean: it is the approval's audit.
        verify(reports).save(report);
        verify(reports).closeReviews(SALE, SKU, "bob-the-operator", NOW);
    }

    @Test
    void givenAnApprovalOfASkuKeptMoving_thenTheRepairIsDeferredAndTheReviewStaysOpen() {
        openSale();
        underReview();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 0, 10), Map.of(), List.of(), "v2"));
        databaseSoldThree();
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.RETRY);

        ReconciliationReport report = approvals().approveRepair(SALE, SKU, "alice");

        assertThat(report.action()).isEqualTo(ReconciliationAction.DEFERRED);
        verify(hotStore, times(3)).repair(any(), any());
        verify(reports, never()).closeReviews(any(), any(), any(), any());
    }

    @Test
    void givenNoSkuUnderReview_whenARepairIsApproved_thenItIsRefusedAndRedisNotRead() {
        openSale();
        when(reports.awaitingReview(SALE)).thenReturn(List.of());

        assertThatThrownBy(() -> approvals().approveRepair(SALE, SKU, "alice"))
                .isInstanceOf(NoRepairAwaitingApprovalException.class);
        verifyNoInteractions(hotStore);
    }

    @Test
    void givenASkuUnderReview_whenAPassFindsItInSync_thenReconciliationClosesTheReview() {
        openSale();
        underReview();
        when(hotStore.snapshot(SALE)).thenReturn(hot(new LedgerFigures(10, 0, 3, 7), PURCHASES, List.of(), "v3"));
        databaseSoldThree();

        ReconciliationReport report = service().reconcile(SALE, SKU);

        assertThat(report.isClean()).isTrue();
        verify(reports).closeReviews(SALE, SKU, ActivityReconciler.CLEARED_BY, NOW);
    }

    @Test
    void givenASkuUnderReview_whenAPassStillFindsTheResidual_thenTheReviewStaysOpen() {
        openSale();
        underReview();
        redisBehindByThree();
        databaseSoldThree();

        assertThat(service().reconcile(SALE, SKU).action()).isEqualTo(ReconciliationAction.NEEDS_REVIEW);
        verify(reports, never()).closeReviews(any(), any(), any(), any());
    }

    @Test
    void givenAStockAdjustmentTheHotStoreRefused_whenItsSkuIsReconciled_thenARepairAboveTheLimitIsNotHeldBack() {
        redisBehindByThree();
        databaseSoldThree();
        when(hotStore.repair(eq(SALE), any())).thenReturn(LedgerRepairResult.REPAIRED);
        SkuReconciler reconciler = new SkuReconciler(hotStore, reservationMoves, recordedStock, recordedOrders,
                                                     transitions, reports,
                metrics, CLOCK, settings(), RelayedEventsPort.NONE, PipelinePositionPort.NONE);

        ReconciliationReport report = reconciler.reconcile(OPEN_SALE, OPEN_SALE.items().getFirst(), Optional.empty(),
                Set.of(41L), new HashSet<>()).orElseThrow();

        // The operator who made the adjustment decided already: the difference is repaired at once.
        assertThat(report.action()).isEqualTo(ReconciliationAction.REPAIRED);
        assertThat(report.driftUnits()).isGreaterThan(LIMIT);
    }

    @Test
    void givenAnOperatorWithoutAName_whenARepairIsApproved_thenItIsRefused() {
        assertThatThrownBy(() -> approvals().approveRepair(SALE, SKU, " "))
                .isInstanceOf(IllegalArgumentException.class);
        verifyNoInteractions(hotStore, reports);
    }
}
