package io.flashsale.adapter.mysql.replica;

import io.flashsale.adapter.mysql.replica.ReplicaRouting.Reads;
import io.flashsale.application.reconciliation.port.out.PurchaseScope;
import io.flashsale.application.reconciliation.port.out.RecordedSliceStockPort;
import io.flashsale.application.reconciliation.port.out.RecordedStockPort;
import io.flashsale.domain.activity.ActivityId;
import io.flashsale.domain.activity.SkuId;
import io.flashsale.domain.reconciliation.RecordedSku;
import io.flashsale.domain.reservation.ReservationId;
import io.flashsale.domain.slice.SaleSlice;

import java.util.Collection;
import java.util.Optional;

/**
 * A SKU's figures, whole or one slice's, from the replica only when it has caught up with the primary: repairs are
 * computed from them.
 */
public final class RoutedRecordedStock implements RecordedStockPort, RecordedSliceStockPort {

    private final Figures primary;
    private final Figures replica;
    private final ReplicaRouting routing;

    public <P extends RecordedStockPort & RecordedSliceStockPort> RoutedRecordedStock(P primary, P replica,
                                                                                     ReplicaRouting routing) {
        this.primary = new Figures(primary, primary);
        this.replica = new Figures(replica, replica);
        this.routing = routing;
    }

    @Override
    public Optional<RecordedSku> recordedSku(ActivityId activityId, SkuId skuId, Collection<ReservationId> reservations,
                                             PurchaseScope purchases) {
        return routing.read(Reads.FIGURES, primary, replica,
                figures -> figures.skus().recordedSku(activityId, skuId, reservations, purchases));
    }

    @Override
    public Optional<RecordedSku> recordedSlice(SaleSlice slice, SkuId skuId, Collection<ReservationId> reservations,
                                               PurchaseScope purchases) {
        return routing.read(Reads.FIGURES, primary, replica,
                figures -> figures.slices().recordedSlice(slice, skuId, reservations, purchases));
    }

    /** One server's reads, by the port each serves. */
    private record Figures(RecordedStockPort skus, RecordedSliceStockPort slices) {
    }
}
