package io.flashsale.adapter.mysql.replica;

import io.flashsale.adapter.mysql.replica.ReplicaRouting.Reads;
import io.flashsale.application.reconciliation.port.out.AdjustmentRecording;
import io.flashsale.application.reconciliation.port.out.StockAdjustmentsPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.stock.StockAdjustment;

import java.time.Instant;
import java.util.List;

/** Adjustments recorded on the primary, listed from the replica while it trails by at most the bound. */
public final class RoutedStockAdjustments implements StockAdjustmentsPort {

    private final StockAdjustmentsPort primary;
    private final StockAdjustmentsPort replica;
    private final ReplicaRouting routing;

    public RoutedStockAdjustments(StockAdjustmentsPort primary, StockAdjustmentsPort replica,
                                  ReplicaRouting routing) {
        this.primary = primary;
        this.replica = replica;
        this.routing = routing;
    }

    @Override
    public AdjustmentRecording record(ActivityId activityId, SkuId skuId, long delta, String operator, String reason,
                                      Instant at) {
        return primary.record(activityId, skuId, delta, operator, reason, at);
    }

    @Override
    public List<StockAdjustment> findByActivity(ActivityId activityId) {
        return routing.read(Reads.LISTING, primary, replica, adjustments -> adjustments.findByActivity(activityId));
    }
}
