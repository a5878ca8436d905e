package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.SliceAdjustmentPort;
import io.flashsale.application.slice.port.in.TransferStockUseCase;
import io.flashsale.application.slice.port.out.SliceStockPort;

import java.util.Objects;

/**
 * What an audited stock adjustment of a sale in slices needs besides {@link StockAdjustmentService.Ports} (ADR 112):
 * each slice's part applied to its ledger, what each slice has available, the stock transfers that bring a slice the
 * units its part of a reduction takes, and each slice's reconciliation.
 */
public record SlicedAdjustmentPorts(SliceAdjustmentPort hotStore, SliceStockPort stock,
                                    TransferStockUseCase transfers, SliceReconcilingPorts reconciling) {

    public SlicedAdjustmentPorts {
        Objects.requireNonNull(hotStore, "hotStore");
        Objects.requireNonNull(stock, "stock");
        Objects.requireNonNull(transfers, "transfers");
        Objects.requireNonNull(reconciling, "reconciling");
    }
}
