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
import io.flashsale.application.sale.model.SaleInSlicesException;
import io.flashsale.domain.activity.Activity;

import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * What reconciling a SKU reads, repairs and reports to, for every service that reconciles. The hot store's optional
 * roles come as their null objects when the store has none: {@link RelayedEventsPort#NONE} judges a reservation's
 * event by its age and re-drives it through the hot store, {@link PipelinePositionPort#NONE} sees no broker.
 *
 * @param relayed  the hot store's outbox and the broker positions it recorded (ADR 29)
 * @param pipeline where the order consumer stands in the broker
 * @param slices   what reconciling a sale in slices needs besides (ADR 110); without it such a sale is refused
 */
public record ReconcilingPorts(ReservationTransitionsPort reservations, HotStoreReconciliationPort hotStore,
                               RelayedEventsPort relayed, PipelinePositionPort pipeline, RecordedStockPort recorded,
                               RecordedOrdersPort recordedOrders, OrderTransitionsPort transitions,
                               ReconciliationReportsPort reports, ReconciliationMetricsPort metrics,
                               Optional<SliceReconcilingPorts> slices) {

    public ReconcilingPorts {
        Objects.requireNonNull(relayed, "relayed");
        Objects.requireNonNull(pipeline, "pipeline");
        Objects.requireNonNull(slices, "slices");
    }

    /** For stores without sales in slices: a sale in slices is refused ({@link SaleInSlicesException}). */
    public ReconcilingPorts(ReservationTransitionsPort reservations, HotStoreReconciliationPort hotStore,
                            RelayedEventsPort relayed, PipelinePositionPort pipeline, RecordedStockPort recorded,
                            RecordedOrdersPort recordedOrders, OrderTransitionsPort transitions,
                            ReconciliationReportsPort reports, ReconciliationMetricsPort metrics) {
        this(reservations, hotStore, relayed, pipeline, recorded, recordedOrders, transitions, reports, metrics,
                Optional.empty());
    }

    /** The ports of slices, for a sale in slices that {@code what} is about to reconcile. */
    SliceReconcilingPorts slicesFor(Activity activity, String what) {
        return slices.orElseThrow(() -> new SaleInSlicesException(activity.id(), activity.slices().count(), what));
    }

    SkuReconciler skuReconciler(Clock clock, ReconciliationSettings settings) {
        return new SkuReconciler(hotStore, reservations, recorded, recordedOrders, transitions, reports, metrics, clock,
                settings, relayed, pipeline);
    }
}
