package io.flashsale.bootstrap.config;

import io.flashsale.adapter.metrics.MicrometerReconciliationMetrics;
import io.flashsale.adapter.mysql.MysqlActivityRepository;
import io.flashsale.adapter.scheduling.LifecyclePasses;
import io.flashsale.adapter.scheduling.PeriodicLoop;
import io.flashsale.adapter.scheduling.SingleRunners;
import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.port.in.ReconcileActivityUseCase;
import io.flashsale.application.reconciliation.port.in.ScheduleReconciliationsUseCase;
import io.flashsale.application.reconciliation.port.out.AdjustmentProposalsPort;
import io.flashsale.application.reconciliation.port.out.HotStoreAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.application.reconciliation.service.AdjustmentApprovalService;
import io.flashsale.application.reconciliation.service.LedgerRebuildService;
import io.flashsale.application.reconciliation.service.RebuildPorts;
import io.flashsale.application.reconciliation.service.ReconcileService;
import io.flashsale.application.reconciliation.service.ReconciliationReportsService;
import io.flashsale.application.reconciliation.service.ReconciliationScheduleService;
import io.flashsale.application.reconciliation.service.ReconciliationSettings;
import io.flashsale.application.reconciliation.service.ReconcilingPorts;
import io.flashsale.application.reconciliation.service.RepairApprovalService;
import io.flashsale.application.reconciliation.service.SliceRebuildPorts;
import io.flashsale.application.reconciliation.service.SliceReconcilingPorts;
import io.flashsale.application.reconciliation.service.SlicedAdjustmentPorts;
import io.flashsale.application.reconciliation.service.StockAdjustmentService;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;
import io.flashsale.application.sale.port.out.SaleChangesPort;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Clock;
import java.util.Optional;

/**
 * Redis kept honest with the database of record: reconciliation on a schedule and on demand, rebuilds of sales Redis
 * lost, and audited stock adjustments under four eyes (ADR 84). The schedule runs on one instance at a time ({@link SingleRunners}); every
 * repair, scheduled or on demand, is guarded by what its snapshot saw.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ReconciliationProperties.class, AdjustmentProperties.class})
public class ReconciliationConfiguration {

    @Bean
    ReconciliationSettings reconciliationSettings(ReconciliationProperties reconciliation, WarmUpProperties warmUp) {
        return new ReconciliationSettings(reconciliation.grace(), reconciliation.attempts(), warmUp.lead(),
                reconciliation.redriveWindow(), reconciliation.auditPages(), reconciliation.autoRepairLimit());
    }

    @Bean
    MicrometerReconciliationMetrics reconciliationMetrics(MeterRegistry registry) {
        return new MicrometerReconciliationMetrics(registry);
    }

    /**
     * A hot store that shows its outbox and the broker positions gets the exact judgement of "lost" (ADR 29); without
     * them, their null objects. A sale in slices is reconciled slice by slice (ADR 110).
     */
    @Bean
    ReconcilingPorts reconcilingPorts(ReservationTransitionsPort moves, HotStoreReconciliationPort hotStore,
                                      RecordedStockPort recorded, RecordedOrdersPort recordedOrders,
                                      OrderTransitionsPort transitions, ReconciliationReportsPort reports,
                                      ReconciliationMetricsPort metrics, ObjectProvider<RelayedEventsPort> relayed,
                                      ObjectProvider<PipelinePositionPort> pipeline,
                                      SliceReconcilingPorts slices) {
        return new ReconcilingPorts(moves, hotStore, relayed.getIfAvailable(() -> RelayedEventsPort.NONE),
                pipeline.getIfAvailable(() -> PipelinePositionPort.NONE), recorded, recordedOrders, transitions,
                reports, metrics, Optional.of(slices));
    }

    @Bean
    SliceReconcilingPorts sliceReconcilingPorts(SliceReconciliationPort hotStore, RecordedSliceStockPort recorded,
                                                StockTransfersPort transfers) {
        return new SliceReconcilingPorts(hotStore, recorded, transfers);
    }

    /**
     * A hot store that keeps recovery marks has a lost sale's rebuild wait for the pipeline (ADR 30); without them,
     * their null objects. A sale in slices is rebuilt slice by slice, only the slices the hot store lost (ADR 111).
     */
    @Bean
    RebuildPorts rebuildPorts(HotStoreRebuildPort hotStore, HotStoreSettlementPort settlement,
                              RecordedStockPort recorded, RecordedOrdersPort recordedOrders,
                              ReconciliationMetricsPort metrics, ObjectProvider<RelayedEventsPort> relayed,
                              ObjectProvider<RecoveryMarkPort> recoveryMarks,
                              ObjectProvider<PipelinePositionPort> pipeline, SliceRebuildPorts slices) {
        return new RebuildPorts(hotStore, settlement, relayed.getIfAvailable(() -> RelayedEventsPort.NONE),
                recoveryMarks.getIfAvailable(() -> RecoveryMarkPort.NONE),
                pipeline.getIfAvailable(() -> PipelinePositionPort.NONE), recorded, recordedOrders, metrics,
                Optional.of(slices));
    }

    @Bean
    SliceRebuildPorts sliceRebuildPorts(SliceRebuildPort hotStore, RecordedSliceOrdersPort orders,
                                        RecordedSliceStockPort recorded, StockTransfersPort transfers) {
        return new SliceRebuildPorts(hotStore, orders, recorded, transfers);
    }

    @Bean
    ReconcileService reconcileService(MysqlActivityRepository activities, ReconcilingPorts reconciling,
                                      RebuildPorts rebuilding, Clock clock, ReconciliationSettings settings) {
        return new ReconcileService(activities, reconciling, rebuilding, clock, settings);
    }

    @Bean
    LedgerRebuildService ledgerRebuildService(MysqlActivityRepository activities, RebuildPorts rebuilding,
                                              Clock clock) {
        return new LedgerRebuildService(activities, rebuilding, clock);
    }

    @Bean
    ReconciliationScheduleService reconciliationScheduleService(MysqlActivityRepository activities,
                                                                ReconcilingPorts reconciling, RebuildPorts rebuilding,
                                                                Clock clock, ReconciliationSettings settings) {
        return new ReconciliationScheduleService(activities, reconciling, rebuilding, clock, settings);
    }

    @Bean
    ReconciliationReportsService reconciliationReportsService(MysqlActivityRepository activities,
                                                              ReconciliationReportsPort reports) {
        return new ReconciliationReportsService(activities, reports);
    }

    @Bean
    RepairApprovalService repairApprovalService(MysqlActivityRepository activities, ReconcilingPorts reconciling,
                                                Clock clock, ReconciliationSettings settings) {
        return new RepairApprovalService(activities, reconciling, clock, settings);
    }

    @Bean
    StockAdjustmentService stockAdjustmentService(MysqlActivityRepository activities,
                                                  StockAdjustmentsPort adjustments, ReservationTransitionsPort moves,
                                                  HotStoreReconciliationPort hotStore,
                                                  HotStoreAdjustmentPort hotStoreAdjustments,
                                                  ObjectProvider<RelayedEventsPort> relayed,
                                                  RecordedStockPort recorded, RecordedOrdersPort recordedOrders,
                                                  OrderTransitionsPort transitions,
                                                  ReconciliationReportsPort reports,
                                                  ReconciliationMetricsPort metrics, Clock clock,
                                                  ReconciliationSettings settings, SaleChangesPort changes,
                                                  SlicedAdjustmentPorts slices) {
        return new StockAdjustmentService(new StockAdjustmentService.Ports(activities, activities,
                adjustments, moves, hotStore, hotStoreAdjustments,
                relayed.getIfAvailable(() -> RelayedEventsPort.NONE), recorded, recordedOrders, transitions, reports,
                metrics, changes, Optional.of(slices)), clock, settings);
    }

    /** A sale in slices is adjusted slice by slice, each taking its part (ADR 112). */
    @Bean
    SlicedAdjustmentPorts slicedAdjustmentPorts(SliceAdjustmentPort hotStore, SliceStockPort stock,
                                                TransferStockUseCase transfers, SliceReconcilingPorts reconciling) {
        return new SlicedAdjustmentPorts(hotStore, stock, transfers, reconciling);
    }

    @Bean
    AdjustmentApprovalService adjustmentApprovalService(MysqlActivityRepository activities,
                                                        AdjustmentProposalsPort proposals,
                                                        StockAdjustmentService adjustments,
                                                        ReconcileActivityUseCase reconciliation, Clock clock,
                                                        AdjustmentProperties properties) {
        return new AdjustmentApprovalService(activities, proposals, adjustments, reconciliation, clock,
                properties.proposalTtl());
    }

    @Bean
    PeriodicLoop reconciliationLoop(ScheduleReconciliationsUseCase reconciliations,
                                    ReconciliationProperties reconciliation, SingleRunners singleRunners) {
        return new PeriodicLoop("reconciliation-schedule", singleRunners.guard("reconciliation",
                LifecyclePasses.reconciliations(reconciliations), reconciliation.interval()),
                reconciliation.interval(), reconciliation.scheduleEnabled());
    }
}
