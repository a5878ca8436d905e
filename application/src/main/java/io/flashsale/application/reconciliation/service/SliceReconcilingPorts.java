package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
import io.flashsale.application.reconciliation.port.out.SliceReconciliationPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;

import java.util.Objects;

/**
 * What reconciling a sale in slices reads and repairs besides {@link ReconcilingPorts} (ADR 110): each slice's side in
 * the hot store, each slice's figures in the database of record, and the stock transfers that decide each slice's
 * allotment.
 */
public record SliceReconcilingPorts(SliceReconciliationPort hotStore, RecordedSliceStockPort recorded,
                                    StockTransfersPort transfers) {

    public SliceReconcilingPorts {
        Objects.requireNonNull(hotStore, "hotStore");
        Objects.requireNonNull(recorded, "recorded");
        Objects.requireNonNull(transfers, "transfers");
    }
}
