package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.model.ActivityReconciliation;
import io.flashsale.application.reconciliation.model.AdjustmentProposalNotFoundException;
import io.flashsale.application.reconciliation.model.ProposalApprovalResult;
import io.flashsale.application.reconciliation.model.ProposalRejectionResult;
import io.flashsale.application.reconciliation.model.StockAdjustmentResult;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.out.AdjustmentProposalsPort;
import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.ProposalApproval;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.stock.AdjustmentProposal;
import io.flashsale.domain.stock.LedgerAdjustment;
import io.flashsale.domain.stock.ProposalDecision;
import io.flashsale.domain.stock.ProposalStatus;
import io.flashsale.domain.stock.StockAdjustment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class AdjustmentApprovalServiceTest {

    private static final Duration TTL = Duration.ofMinutes(30);
    private static final String REASON = "a returned pallet was found";
    private static final String OLIVIA = "olivia";
    private static final String PETER = "peter";

    @Mock
    private ActivityStore activities;
    @Mock
    private AdjustmentProposalsPort proposals;
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
    private RecordedOrdersPort recordedOrders;
    @Mock
    private OrderTransitionsPort transitions;
    @Mock
    private ReconciliationReportsPort reports;
    @Mock
    private SaleChangesPort changes;
    @Mock
    private ReconcileActivityUseCase reconciliation;

    private AdjustmentApprovalService service() {
        var applier = new StockAdjustmentService(new StockAdjustmentService.Ports(activities, activities,
                adjustments, reservationMoves,
                hotStore, hotStoreAdjustments, RelayedEventsPort.NONE, recordedStock, recordedOrders, transitions,
                        reports,
                new RecordingReconciliationMetrics(), changes), CLOCK, ReconciliationSettings.DEFAULTS);
        return new AdjustmentApprovalService(activities, proposals, applier, reconciliation, CLOCK, TTL);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    private static AdjustmentProposal pending(long id, long delta, Instant proposedAt) {
        return AdjustmentProposal.pending(id, SALE, SKU, delta, REASON, OLIVIA, proposedAt, proposedAt.plus(TTL));
    }

    private void stored(AdjustmentProposal proposal) {
        when(proposals.find(SALE, proposal.id())).thenReturn(Optional.of(proposal));
    }

    @Test
    void givenAProposal_thenItIsStoredPendingUntilTheTtlAndNothingElseChanges() {
        openSale();
        AdjustmentProposal made = pending(7, 5, NOW);
        when(proposals.propose(SALE, SKU, 5, REASON, OLIVIA, NOW, NOW.plus(TTL))).thenReturn(made);

        assertThat(service().propose(SALE, SKU, 5, REASON, OLIVIA)).isEqualTo(made);
        verifyNoInteractions(adjustments, hotStore, changes, reconciliation);
    }

    @Test
    void givenTheProposerApproves_thenRefusedAsTheSameOperatorAndNothingIsRecorded() {
        AdjustmentProposal proposal = pending(7, 5, NOW.minusSeconds(60));
        stored(proposal);

        ProposalApprovalResult result = service().approve(SALE, 7, OLIVIA);

        assertThat(result).isEqualTo(new ProposalApprovalResult.Refused(proposal,
                new ProposalDecision.SameOperator(OLIVIA)));
        verify(proposals, never()).approve(any(), any(), any());
        verifyNoInteractions(adjustments, hotStore, changes, reconciliation);
    }

    @Test
    void givenAnExpiredProposal_whenAnotherOperatorApproves_thenRefusedAsExpiredAndNothingIsRecorded() {
        AdjustmentProposal proposal = pending(7, 5, NOW.minus(TTL));
        stored(proposal);

        ProposalApprovalResult result = service().approve(SALE, 7, PETER);

        assertThat(result).isEqualTo(new ProposalApprovalResult.Refused(proposal,
                new ProposalDecision.Expired(NOW)));
        verify(proposals, never()).approve(any(), any(), any());
        verifyNoInteractions(hotStore, reconciliation);
    }

    /** Olivia's +5 (proposal 7), which the database approves for Peter as adjustment 41; Redis does not hold it. */
    private StockAdjustment approvedByPeter() {
        openSale();
        AdjustmentProposal proposal = pending(7, 5, NOW.minusSeconds(60));
        stored(proposal);
        StockAdjustment recorded = new StockAdjustment(41, SALE, SKU, 5, 10, 15, 2, OLIVIA, REASON, NOW);
        when(proposals.approve(proposal, PETER, NOW)).thenReturn(new ProposalApproval.Decided(
                proposal.closed(ProposalStatus.APPROVED, PETER, NOW, 41L), new AdjustmentRecording.Recorded(recorded)));
        when(hotStoreAdjustments.adjust(SALE, SKU, 5, 41)).thenReturn(new LedgerAdjustment.NotLoaded());
        return recorded;
    }

    @Test
    void givenAnotherOperatorApproves_thenTheAdjustmentTakesTheUsualPathAndThenTheWholeSaleIsReconciled() {
        StockAdjustment recorded = approvedByPeter();
        var saleReconciled = new ActivityReconciliation(SALE, ActivityReconciliation.HotStoreState.LOADED, List.of());
        when(reconciliation.reconcile(SALE)).thenReturn(saleReconciled);

        ProposalApprovalResult result = service().approve(SALE, 7, PETER);

        InOrder order = inOrder(proposals, hotStore, changes, reconciliation, hotStoreAdjustments);
        order.verify(proposals).approve(any(), eq(PETER), eq(NOW));
        order.verify(hotStoreAdjustments).adjust(SALE, SKU, 5, 41);
        order.verify(changes).announce(SALE);
        order.verify(reconciliation).reconcile(SALE);
        assertThat(result).isInstanceOfSatisfying(ProposalApprovalResult.Approved.class, done -> {
            assertThat(done.proposal().status()).isEqualTo(ProposalStatus.APPROVED);
            assertThat(done.proposal().decidedBy()).isEqualTo(PETER);
            assertThat(done.adjusted().adjustment()).isEqualTo(recorded);
            assertThat(done.saleReconciliation()).contains(saleReconciled);
        });
        verify(adjustments, never()).record(any(), any(), anyLong(), any(), any(), any());
    }

    @Test
    void givenTheApprovalLostARace_thenRefusedAsClosedAndNothingReachesRedis() {
        openSale();
        AdjustmentProposal proposal = pending(7, 5, NOW.minusSeconds(60));
        stored(proposal);
        AdjustmentProposal winner = proposal.closed(ProposalStatus.APPROVED, "quinn", NOW, 41L);
        when(proposals.approve(proposal, PETER, NOW)).thenReturn(new ProposalApproval.NoLongerPending(winner));

        ProposalApprovalResult result = service().approve(SALE, 7, PETER);

        assertThat(result).isEqualTo(new ProposalApprovalResult.Refused(winner,
                new ProposalDecision.Closed(ProposalStatus.APPROVED)));
        verifyNoInteractions(hotStore, changes, reconciliation);
    }

    @Test
    void givenTheStockNoLongerAllowsIt_thenRefusedByTheStockAndRedisIsNeverTouched() {
        openSale();
        AdjustmentProposal proposal = pending(7, -9, NOW.minusSeconds(60));
        stored(proposal);
        when(proposals.approve(proposal, PETER, NOW)).thenReturn(new ProposalApproval.Decided(proposal,
                new AdjustmentRecording.BelowSold(10, 3)));

        ProposalApprovalResult result = service().approve(SALE, 7, PETER);

        assertThat(result).isEqualTo(new ProposalApprovalResult.StockRefused(proposal,
                new StockAdjustmentResult.BelowSold(10, 3)));
        verifyNoInteractions(hotStore, changes, reconciliation);
    }

    @Test
    void givenTheSaleReconciliationFails_thenTheApprovalStillStandsWithoutAReport() {
        approvedByPeter();
        doThrow(new IllegalStateException("redis went away")).when(reconciliation).reconcile(SALE);

        ProposalApprovalResult result = service().approve(SALE, 7, PETER);

        assertThat(result).isInstanceOfSatisfying(ProposalApprovalResult.Approved.class,
                done -> assertThat(done.saleReconciliation()).isEmpty());
    }

    @Test
    void givenThePendingProposal_whenItsProposerClosesIt_thenWithdrawn_andWhenAnotherOperatorDoes_thenRejected() {
        AdjustmentProposal proposal = pending(7, 5, NOW.minusSeconds(60));
        stored(proposal);
        AdjustmentProposal withdrawn = proposal.closed(ProposalStatus.WITHDRAWN, OLIVIA, NOW, null);
        AdjustmentProposal rejected = proposal.closed(ProposalStatus.REJECTED, PETER, NOW, null);
        when(proposals.close(proposal, ProposalStatus.WITHDRAWN, OLIVIA, NOW)).thenReturn(Optional.of(withdrawn));
        when(proposals.close(proposal, ProposalStatus.REJECTED, PETER, NOW)).thenReturn(Optional.of(rejected));

        assertThat(service().reject(SALE, 7, OLIVIA)).isEqualTo(new ProposalRejectionResult.Closed(withdrawn));
        assertThat(service().reject(SALE, 7, PETER)).isEqualTo(new ProposalRejectionResult.Closed(rejected));
        verifyNoInteractions(adjustments, hotStore, reconciliation);
    }

    @Test
    void givenAClosedProposal_whenRejected_thenRefusedAsClosed() {
        AdjustmentProposal approved = pending(7, 5, NOW.minusSeconds(60))
                .closed(ProposalStatus.APPROVED, PETER, NOW.minusSeconds(1), 41L);
        stored(approved);

        assertThat(service().reject(SALE, 7, "quinn")).isEqualTo(new ProposalRejectionResult.Refused(approved,
                new ProposalDecision.Closed(ProposalStatus.APPROVED)));
        verify(proposals, never()).close(any(), any(), any(), any());
    }

    @Test
    void givenProposalsInEveryState_whenOnlyPendingOnesAreAsked_thenExpiredAndClosedOnesAreLeftOut() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        AdjustmentProposal expired = pending(1, 5, NOW.minus(TTL).minusSeconds(1));
        AdjustmentProposal rejected = pending(2, 5, NOW.minusSeconds(90)).closed(ProposalStatus.REJECTED, PETER, NOW,
                null);
        AdjustmentProposal open = pending(3, -2, NOW.minusSeconds(30));
        when(proposals.findByActivity(SALE)).thenReturn(List.of(expired, rejected, open));

        assertThat(service().proposals(SALE, true)).containsExactly(open);
        assertThat(service().proposals(SALE, false)).containsExactly(expired, rejected, open);
    }

    @Test
    void givenNoSuchProposal_thenNotFound() {
        when(proposals.find(SALE, 99)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service().approve(SALE, 99, PETER))
                .isInstanceOf(AdjustmentProposalNotFoundException.class);
        assertThatThrownBy(() -> service().reject(SALE, 99, PETER))
                .isInstanceOf(AdjustmentProposalNotFoundException.class);
    }
}
