package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.reconciliation.model.RebuildOutcome;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.RebuildStart;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.application.testing.ActivityStore;
import io.flashsale.application.testing.RecordingReconciliationMetrics;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.reconciliation.SkuRebuild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.ANN;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.CLOCK;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.NOW;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.OPEN_SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SALE;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.SKU;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.inThreeSlices;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.rebuilding;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.recorded;
import static io.flashsale.application.reconciliation.service.ReconciliationFixtures.sale;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.lenient;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

@ExtendWith(MockitoExtension.class)
class LedgerRebuildServiceTest {

    @Mock
    private ActivityStore activities;
    @Mock
    private HotStoreReconciliationPort hotStore;
    @Mock
    private HotStoreRebuildPort hotStoreRebuild;
    @Mock
    private HotStoreSettlementPort settlement;
    @Mock
    private RecordedStockPort recordedStock;
    @Mock
    private RecordedOrdersPort recordedOrders;

    private final RecordingReconciliationMetrics metrics = new RecordingReconciliationMetrics();

    private LedgerRebuildService service() {
        return new LedgerRebuildService(activities,
                rebuilding(hotStoreRebuild, settlement, recordedStock, recordedOrders, metrics), CLOCK);
    }

    private void openSale() {
        when(activities.findById(SALE)).thenReturn(Optional.of(OPEN_SALE));
        when(activities.archivedAt(SALE)).thenReturn(Optional.empty());
    }

    @Test
    void givenASaleInSlices_whenARebuildIsAsked_thenRefusedAndNothingIsLoaded() {
        when(activities.findById(SALE)).thenReturn(Optional.of(inThreeSlices(OPEN_SALE)));
        lenient().when(activities.archivedAt(SALE)).thenReturn(Optional.empty());

        assertThatThrownBy(() -> service().rebuild(SALE)).isInstanceOfSatisfying(SaleInSlicesException.class,
                refused -> assertThat(refused.operation()).isEqualTo("a rebuild"));
        verifyNoInteractions(hotStoreRebuild, recordedOrders, recordedStock);
    }

    @Test
    void givenTheRebuildUseCase_thenItLoadsOnlyWhatIsMissingAndNeverAnEndedSale() {
        openSale();
        when(recordedStock.recordedSku(eq(SALE), eq(SKU), eq(List.of()), any()))
                .thenReturn(recorded(10, 4, Map.of(ANN, 4L)));
        when(recordedOrders.ordersAfter(SALE, Optional.empty(), LedgerRebuild.PAGE)).thenReturn(List.of());
        when(hotStoreRebuild.finishRebuild(eq(OPEN_SALE), eq("r1"), any())).thenReturn(true);
        when(hotStoreRebuild.beginRebuild(SALE, NOW)).thenReturn(new RebuildStart.Started("r1", Optional.empty(), NOW),
                new RebuildStart.Loaded(), new RebuildStart.Rebuilding(), new RebuildStart.OutboxPending());

        assertThat(service().rebuild(SALE)).isEqualTo(RebuildOutcome.REBUILT);
        assertThat(service().rebuild(SALE)).as("loaded already, by a warm-up or another instance")
                .isEqualTo(RebuildOutcome.ALREADY_LOADED);
        assertThat(service().rebuild(SALE)).as("another instance rebuilds it").isEqualTo(RebuildOutcome.IN_PROGRESS);
        assertThat(service().rebuild(SALE)).as("reservations still in the outbox")
                .isEqualTo(RebuildOutcome.IN_PROGRESS);
        verify(hotStoreRebuild, times(1)).finishRebuild(OPEN_SALE, "r1",
                List.of(new SkuRebuild(SKU, 10, 4, Map.of(ANN, 4L), Set.of())));
        assertThat(metrics.rebuilt).containsExactly(SALE);

        ActivityId over = new ActivityId("over");
        when(activities.findById(over)).thenReturn(Optional.of(sale(over, NOW.minusSeconds(7200), NOW.minusSeconds(1))));
        when(activities.archivedAt(over)).thenReturn(Optional.empty());
        assertThat(service().rebuild(over)).isEqualTo(RebuildOutcome.ENDED);
    }
}
