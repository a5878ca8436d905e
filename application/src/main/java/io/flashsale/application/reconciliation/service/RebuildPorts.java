package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.HotStoreSettlementPort;
import io.flashsale.application.reconciliation.port.out.HotStoreRebuildPort;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RecoveryMarkPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.sale.model.SaleInSlicesException;

import java.util.Objects;
import java.util.Optional;

/**
 * What rebuilding a sale the hot store lost reads and writes, for every service that rebuilds. The optional roles come
 * as their null objects when the store has none: {@link RelayedEventsPort#NONE} or {@link RecoveryMarkPort#NONE} lets
 * a rebuild wait for nothing in the pipeline, {@link PipelinePositionPort#NONE} sees no broker.
 *
 * @param relayed       the hot store's outbox, drained before a rebuild (ADR 30)
 * @param recoveryMarks where a lost sale's rebuild keeps the broker's end it waits for (ADR 30)
 * @param pipeline      where the order consumer stands in the broker
 * @param slices        what rebuilding one lost slice of a sale in slices needs besides (ADR 111); without it such a
 *                      sale is refused
 */
public record RebuildPorts(HotStoreRebuildPort hotStore, HotStoreSettlementPort settlement,
                           RelayedEventsPort relayed, RecoveryMarkPort recoveryMarks, PipelinePositionPort pipeline,
                           RecordedStockPort recorded, RecordedOrdersPort recordedOrders,
                           ReconciliationMetricsPort metrics, Optional<SliceRebuildPorts> slices) {

    public RebuildPorts {
        Objects.requireNonNull(relayed, "relayed");
        Objects.requireNonNull(recoveryMarks, "recoveryMarks");
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(slices, "slices");
    }

    /** For stores without sales in slices: a sale in slices is refused ({@link SaleInSlicesException}). */
    public RebuildPorts(HotStoreRebuildPort hotStore, HotStoreSettlementPort settlement, RelayedEventsPort relayed,
                        RecoveryMarkPort recoveryMarks, PipelinePositionPort pipeline, RecordedStockPort recorded,
                        RecordedOrdersPort recordedOrders, ReconciliationMetricsPort metrics) {
        this(hotStore, settlement, relayed, recoveryMarks, pipeline, recorded, recordedOrders, metrics,
                Optional.empty());
    }
}
