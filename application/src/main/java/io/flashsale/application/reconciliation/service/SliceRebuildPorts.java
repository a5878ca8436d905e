package io.flashsale.application.reconciliation.service;

import io.flashsale.application.reconciliation.port.out.RecordedSliceOrdersPort;
import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
import io.flashsale.application.reconciliation.port.out.SliceRebuildPort;
import io.flashsale.application.slice.port.out.StockTransfersPort;

import java.util.Objects;

/**
 * What rebuilding one lost slice of a sale in slices reads and writes besides {@link RebuildPorts} (ADR 111): the
 * slice's side in the hot store, its orders and figures in the database of record, and the stock transfers that decide
 * its allotment, whose rows the rebuild moves on where the lost slice's part in them is settled by the loss.
 */
public record SliceRebuildPorts(SliceRebuildPort hotStore, RecordedSliceOrdersPort orders,
                                RecordedSliceStockPort recorded, StockTransfersPort transfers) {

    public SliceRebuildPorts {
        Objects.requireNonNull(hotStore, "hotStore");
        Objects.requireNonNull(orders, "orders");
        Objects.requireNonNull(recorded, "recorded");
        Objects.requireNonNull(transfers, "transfers");
    }
}
