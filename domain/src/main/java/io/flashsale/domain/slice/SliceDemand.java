package io.flashsale.domain.slice;

import io.flashsale.domain.shared.Require;

/**
 * What one slice of a sale holds of a SKU and how fast its buyers take it (ADR 109): the rebalancer's view of it.
 *
 * @param available units the slice can still sell now
 * @param taken     units its buyers reserved since the rebalancer's last look
 */
public record SliceDemand(int slice, long available, long taken) {

    public SliceDemand {
        Require.inRange(slice, 0, SaleSlices.MAX - 1, "slice");
        Require.inRange(available, 0, Long.MAX_VALUE, "available");
        Require.inRange(taken, 0, Long.MAX_VALUE, "taken");
    }
}
