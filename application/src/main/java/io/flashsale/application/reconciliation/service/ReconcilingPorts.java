package io.flashsale.application.reconciliation.service;

import io.flashsale.application.order.port.out.OrderTransitionsPort;
import io.flashsale.application.reconciliation.port.out.HotStoreReconciliationPort;
import io.flashsale.application.reconciliation.port.out.PipelinePositionPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationMetricsPort;
import io.flashsale.application.reconciliation.port.out.ReconciliationReportsPort;
import io.flashsale.application.reconciliation.port.out.RecordedOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.application.reconciliation.port.out.RelayedEventsPort;
import io.flashsale.application.reservation.port.out.ReservationTransitionsPort;

import java.time.Clock;
import java.util.Objects;

/**
 * What reconciling a SKU reads, repairs and reports to, for every service that reconciles. The hot store's optional
 * roles come as their null objects when the store has none: {@link RelayedEventsPort#NONE} judges a reservation's
 * event by its age and re-drives it through the hot store, {@link PipelinePositionPort#NONE} sees no broker.
 *
 * @param relayed  the hot store's outbox and the broker positions it recorded (ADR 29)
 * @param pipeline where the order consumer stands in the broker
 */
public record ReconcilingPorts(ReservationTransitionsPort reservations, HotStoreReconciliationPort hotStore,
                               RelayedEventsPort relayed, PipelinePositionPort pipeline, RecordedStockPort recorded,
                               RecordedOrdersPort recordedOrders, OrderTransitionsPort transitions,
                               ReconciliationReportsPort reports, ReconciliationMetricsPort metrics) {

    public ReconcilingPorts {
        Objects.requireNonNull(relayed, "relayed");
        Objects.requireNonNull(pipeline, "pipeline");
    }

    SkuReconciler skuReconciler(Clock clock, ReconciliationSettings settings) {
        return new SkuReconciler(hotStore, reservations, recorded, recordedOrders, transitions, reports, metrics, clock,
                settings, relayed, pipeline);
    }
}
