package io.flashsale.adapter.mysql.replica;

import io.flashsale.adapter.mysql.replica.ReplicaRouting.Reads;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.ReservationId;

import java.util.Collection;
import java.util.Optional;

/** A SKU's figures from the replica only when it has caught up with the primary: repairs are computed from them. */
public final class RoutedRecordedStock implements RecordedStockPort {

    private final RecordedStockPort primary;
    private final RecordedStockPort replica;
    private final ReplicaRouting routing;

    public RoutedRecordedStock(RecordedStockPort primary, RecordedStockPort replica, ReplicaRouting routing) {
        this.primary = primary;
        this.replica = replica;
        this.routing = routing;
    }

    @Override
    public Optional<RecordedSku> recordedSku(ActivityId activityId, SkuId skuId, Collection<ReservationId> reservations,
                                             PurchaseScope purchases) {
        return routing.read(Reads.FIGURES, primary, replica,
                figures -> figures.recordedSku(activityId, skuId, reservations, purchases));
    }
}
